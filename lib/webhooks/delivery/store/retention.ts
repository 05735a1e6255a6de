import 'server-only';
import type { Knex } from 'knex';
import type { DbRow } from '@/lib/db/dialect';
import { deleteRollupsOf } from './rollups';

/** Deleting delivery history: by age (retention) and with its configuration. */

export type Pruned = { events: number; deliveries: number };

/**
 * Deletes delivery history older than WEBHOOK_RETENTION_DAYS (issue 18): up to `batch` events a
 * call, each with its deliveries and their attempts, in one short transaction, so no delete holds a
 * long lock. Deliveries are created with their event (the same created_at; a redelivery reuses the
 * row), so an event's age is its deliveries'. An event with a pending delivery is kept whole until
 * that delivery ends (it still has an attempt to make). An event's idEvento stops deduplicating once
 * the event is gone.
 */
export async function pruneHistoryBatch(db: Knex, before: number, batch: number): Promise<Pruned> {
  const rows = await db('webhook_events as e')
    .where('e.created_at', '<', before)
    .whereNotExists(
      (query) =>
        void query
          .select(db.raw('1'))
          .from('webhook_deliveries as d')
          .whereRaw('?? = ??', ['d.event_id', 'e.id'])
          .andWhere('d.status', 'pendente'),
    )
    .orderBy('e.created_at')
    .limit(batch)
    .select<DbRow[]>('e.id');
  if (rows.length === 0) return { events: 0, deliveries: 0 };
  const ids = rows.map((row) => String(row.id));
  return db.transaction(async (trx) => {
    // A delivery queued again by staff since the look above stays, and so does its event.
    const finished = trx('webhook_deliveries').whereIn('event_id', ids).andWhereNot('status', 'pendente');
    await trx('webhook_attempts').whereIn('delivery_id', finished.clone().select('id')).delete();
    const deliveries = await finished.clone().delete();
    const events = await trx('webhook_events')
      .whereIn('id', ids)
      .whereNotExists(
        (query) => void query.select(trx.raw('1')).from('webhook_deliveries as d').whereRaw('?? = ??', ['d.event_id', 'webhook_events.id']),
      )
      .delete();
    return { events, deliveries };
  });
}

/**
 * A configuration's deliveries, their attempts and its hourly roll-ups, deleted with it (the events
 * stay: other configurations may share them).
 */
export async function deleteDeliveriesOf(trx: Knex.Transaction, configId: string): Promise<void> {
  const deliveries = trx('webhook_deliveries').where({ config_id: configId }).select('id');
  await trx('webhook_attempts').whereIn('delivery_id', deliveries).delete();
  await trx('webhook_deliveries').where({ config_id: configId }).delete();
  await deleteRollupsOf(trx, configId);
}
