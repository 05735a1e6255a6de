import 'server-only';
import type { Knex } from 'knex';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { TEST_EVENT_TYPE } from '../../events/types';

/** The quotas' sliding windows (issue 27), read from the queue's own tables. */

/**
 * Sliding-window rates (issue 27): when the `nth` newest of a producer's events at or after
 * `since` was created, or null when it has fewer. A limit of n is reached when there is one, and
 * has room again once that event leaves the window. Read backwards through (producer, created_at).
 */
export async function nthNewestEventSince(
  db: Knex | Knex.Transaction,
  producer: string,
  since: number,
  nth: number,
): Promise<number | null> {
  const rows: DbRow[] = await db('webhook_events')
    .where('producer', producer)
    .andWhere('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .offset(nth - 1)
    .limit(1)
    .select('created_at');
  return rows[0] ? toNumber(rows[0].created_at) : null;
}

/** The same for a configuration's test events, through its deliveries (config_id, created_at). */
export async function nthNewestTestDeliverySince(
  db: Knex | Knex.Transaction,
  configId: string,
  since: number,
  nth: number,
): Promise<number | null> {
  const rows: DbRow[] = await db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .where('d.config_id', configId)
    .andWhere('d.created_at', '>=', since)
    .andWhere('e.tipo', TEST_EVENT_TYPE)
    .orderBy('d.created_at', 'desc')
    .offset(nth - 1)
    .limit(1)
    .select('d.created_at');
  return rows[0] ? toNumber(rows[0].created_at) : null;
}
