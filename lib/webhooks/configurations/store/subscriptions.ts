import 'server-only';
import type { Knex } from 'knex';
import { isUniqueViolation, type DbRow } from '@/lib/db/dialect';
import type { WebhookConfiguration } from '../contract';
import { EVENT_TYPE_OF_FLAG, WEBHOOK_EVENT_FLAGS } from '../../events/types';

/**
 * Event subscriptions (issue 28): a row per configuration and event it receives
 * (webhook_subscriptions), so a new event type is data, not a column. Rows hold event types
 * (avaliacao-saude.aprovada); the API object keeps the contract's flags: each flag is whether its
 * event type's row exists (rows.ts).
 */
export async function subscriptionsOf(db: Knex | Knex.Transaction, ids: readonly string[]): Promise<Map<string, Set<string>>> {
  const events = new Map<string, Set<string>>(ids.map((id) => [id, new Set<string>()]));
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db('webhook_subscriptions')
      .whereIn('config_id', ids.slice(i, i + 1000))
      .select<DbRow[]>('config_id', 'event_type');
    for (const row of rows) events.get(String(row.config_id))?.add(String(row.event_type));
  }
  return events;
}

/**
 * The configuration's flag subscriptions replaced by its flags' (in the caller's transaction). Rows
 * of other event types (the operator's operational events) are not the flags' to remove.
 */
export async function saveSubscriptions(trx: Knex.Transaction, config: WebhookConfiguration): Promise<void> {
  await trx('webhook_subscriptions').where({ config_id: config.id }).whereIn('event_type', Object.values(EVENT_TYPE_OF_FLAG)).delete();
  const rows = WEBHOOK_EVENT_FLAGS.filter((flag) => config[flag]).map((flag) => ({
    config_id: config.id,
    event_type: EVENT_TYPE_OF_FLAG[flag],
  }));
  if (rows.length > 0) await trx('webhook_subscriptions').insert(rows);
}

/**
 * Subscribes a configuration to event types beyond the flags (the operator's operational events),
 * each row added once: one already there, or added by another instance meanwhile, is left as it is.
 */
export async function addSubscriptions(db: Knex, id: string, eventTypes: readonly string[]): Promise<void> {
  const present = new Set((await db('webhook_subscriptions').where({ config_id: id }).pluck('event_type')).map(String));
  for (const eventType of eventTypes.filter((type) => !present.has(type))) {
    try {
      await db('webhook_subscriptions').insert({ config_id: id, event_type: eventType });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
}

export async function removeSubscriptions(db: Knex, id: string, eventTypes: readonly string[]): Promise<number> {
  return db('webhook_subscriptions').where({ config_id: id }).whereIn('event_type', eventTypes).delete();
}
