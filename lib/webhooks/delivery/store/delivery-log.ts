import 'server-only';
import type { Knex } from 'knex';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import type { AttemptError, DeliveryStatus } from '../contract';
import { loadAttemptContexts } from './outcomes';
import { headOfQueue } from './queue';
import { deliveryFromRow, optionalNumber, optionalString, type DeliveryRow } from './rows';

/** A configuration's deliveries and their attempts, as the delivery log reads them. */

export async function listDeliveries(
  db: Knex,
  configId: string,
  filter: { status?: DeliveryStatus; limit: number; before?: number; event?: string },
): Promise<{ delivery: DeliveryRow; tipo: string; idEvento: string; eventId: string }[]> {
  let query = db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .where('d.config_id', configId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(filter.limit)
    .select('d.*', 'e.tipo as event_tipo', 'e.id_evento as event_id_evento');
  if (filter.status) query = query.andWhere('d.status', filter.status);
  if (filter.before !== undefined) query = query.andWhere('d.created_at', '<', filter.before);
  // The producer's idEvento, or the `evt_…` id the publish answered.
  if (filter.event !== undefined) query = query.andWhere((q) => void q.where('e.id', filter.event).orWhere('e.id_evento', filter.event));
  const rows = (await query) as DbRow[];
  return rows.map((row) => ({
    delivery: deliveryFromRow(row),
    tipo: String(row.event_tipo),
    idEvento: optionalString(row.event_id_evento) ?? String(row.event_id),
    eventId: String(row.event_id),
  }));
}

export async function findDelivery(db: Knex, configId: string, deliveryId: string) {
  const [context] = await loadAttemptContexts(db, [deliveryId]);
  if (!context || context.config.id !== configId) return undefined;
  const attempts = (await db('webhook_attempts').where({ delivery_id: deliveryId }).orderBy('attempt_no')) as DbRow[];
  return {
    context,
    attempts: attempts.map((row) => ({
      number: toNumber(row.attempt_no),
      startedAt: toNumber(row.started_at),
      status: optionalNumber(row.status),
      durationMs: toNumber(row.duration_ms),
      body: optionalString(row.body_excerpt),
      error: optionalString(row.error) as AttemptError | null,
      headers: JSON.parse(String(row.request_headers_json)) as Record<string, string>,
      requestBody: optionalString(row.request_body),
    })),
  };
}

/**
 * The head of a configuration's queue: its oldest pending delivery (publication order), the one
 * ordered delivery sends next; with its event's idEvento and since when it has been failing (since
 * when it holds the others back, issue 45).
 */
export async function queueHead(db: Knex, configId: string): Promise<{ id: string; idEvento: string; failingSince: number | null } | null> {
  const [head] = await headOfQueue(db, configId).select<DbRow[]>('id', 'event_id', 'failing_since');
  if (!head) return null;
  const [event] = await db('webhook_events').where({ id: head.event_id }).select<DbRow[]>('id_evento');
  return {
    id: String(head.id),
    idEvento: optionalString(event?.id_evento) ?? String(head.event_id),
    failingSince: optionalNumber(head.failing_since),
  };
}

/** A configuration's latest attempt's error and status (why its receiver looks down), through (config_id, started_at). */
export async function lastAttemptOf(
  db: Knex | Knex.Transaction,
  configId: string,
): Promise<{ error: AttemptError | null; status: number | null } | undefined> {
  const [row] = await db('webhook_attempts')
    .where({ config_id: configId })
    .orderBy('started_at', 'desc')
    .limit(1)
    .select<DbRow[]>('error', 'status');
  return row ? { error: optionalString(row.error) as AttemptError | null, status: optionalNumber(row.status) } : undefined;
}

/**
 * When the configuration's first attempt that delivered at or after `since` started, or null: a
 * receiver confirmed back (issue 45). Through (config_id, started_at).
 */
export async function firstDeliveredSince(db: Knex | Knex.Transaction, configId: string, since: number): Promise<number | null> {
  const [row] = await db('webhook_attempts')
    .where({ config_id: configId })
    .andWhere('started_at', '>=', since)
    .whereNull('error')
    .orderBy('started_at')
    .limit(1)
    .select<DbRow[]>('started_at');
  return row ? toNumber(row.started_at) : null;
}

/**
 * A configuration's skipped deliveries (switched off when their events came), kept for a recovery:
 * how many, and when the oldest was created (the recovery's `desde`). Through (config_id, status, created_at).
 */
export async function skippedDeliveries(db: Knex | Knex.Transaction, configId: string): Promise<{ count: number; oldest: number | null }> {
  const row = (await db('webhook_deliveries')
    .where({ config_id: configId, status: 'ignorada' })
    .count({ n: '*' })
    .min({ oldest: 'created_at' })
    .first()) as DbRow | undefined;
  return { count: toNumber(row?.n ?? 0), oldest: optionalNumber(row?.oldest) };
}
