import 'server-only';
import type { Knex } from 'knex';
import { isUniqueViolation, toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import type { PublishEvent } from '../contract';
import { EVENT_TYPE_OF_FLAG, TEST_EVENT_TYPE } from '../../events/types';
import { TEST_MESSAGE_TEXT } from '../../events/messages';
import type { Candidate } from '../fair-share';
import { newId } from '../ids';
import { ensureTenantRow } from '../../configurations/store/tenants';
import { matchesFilter } from '../../payload-control/filter';
import type { WebhookMessage } from '../../events/messages';
import { messageOf } from '../message';

/** Putting deliveries in the queue: an event's fan-out, a test event, a redelivery, a recovery. */

export type Published = {
  id: string;
  entregas: number;
  repeated: boolean;
  /** The configurations that got a pending delivery, with their tenant (for the worker; not part of the answer). */
  waiting: Candidate[];
};

/**
 * Records an event and its fan-out in one transaction: a delivery for each configuration of the
 * tenant subscribed to the event (webhook_subscriptions); `pendente` when the configuration is enabled, `ignorada`
 * (kept for a later recovery) when it is not, `filtrada` when its content filter does not let the event
 * through (payload control, issue 46: recorded, never queued). The same idEvento from the same producer answers the
 * first event and creates nothing.
 */
export async function publishEvent(
  db: Knex,
  producer: string,
  input: PublishEvent,
  now: number,
  /** Runs in the transaction before anything is written (a repeat aside); a throw refuses the event (the publish rate). */
  guard?: (trx: Knex.Transaction) => Promise<void>,
): Promise<Published> {
  await ensureTenantRow(db, input.usuarioId);
  try {
    return await db.transaction(async (trx) => {
      if (input.idEvento !== undefined) {
        const earlier = await findPublished(trx, producer, input.idEvento);
        if (earlier) return earlier;
      }
      await guard?.(trx);
      const eventId = newId('evt', now);
      // The contract's flag, stored as the event type a receiver sees: the one vocabulary of the columns.
      const tipo = EVENT_TYPE_OF_FLAG[input.tipo];
      await trx('webhook_events').insert({
        id: eventId,
        producer,
        id_evento: input.idEvento ?? null,
        tipo,
        usuario_id: input.usuarioId,
        dados_json: JSON.stringify(input.dados),
        created_at: now,
      });
      const subscribers = await subscribedConfigs(trx, input.usuarioId, tipo);
      const message = messageOf({
        id: eventId,
        idEvento: input.idEvento ?? null,
        tipo,
        usuarioId: input.usuarioId,
        dados: input.dados,
        createdAt: now,
      });
      const { count, waiting } = await insertDeliveries(trx, eventId, subscribers, now, message);
      return { id: eventId, entregas: count, repeated: false, waiting };
    });
  } catch (error) {
    // The same idEvento published twice at once: the loser answers the winner's event.
    if (input.idEvento !== undefined && isUniqueViolation(error)) {
      const earlier = await findPublished(db, producer, input.idEvento);
      if (earlier) return earlier;
    }
    throw error;
  }
}

/** A fan-out's targets: the tenant's configurations subscribed to the event type `tipo` (webhook_subscriptions), whether each is enabled, and its content filter. */
export type Subscriber = { configId: string; tenant: string; enabled: boolean; filter?: unknown };

export async function subscribedConfigs(trx: Knex.Transaction, usuarioId: string, tipo: string): Promise<Subscriber[]> {
  const configs: DbRow[] = await trx('webhook_configs as c')
    .join('webhook_subscriptions as s', 's.config_id', 'c.id')
    .where({ 'c.usuario_id': usuarioId, 's.event_type': tipo })
    .select('c.id', 'c.enabled', 'c.payload_filter_json');
  return configs.map((config) => ({
    configId: String(config.id),
    tenant: usuarioId,
    enabled: toBoolean(config.enabled),
    filter: typeof config.payload_filter_json === 'string' ? (JSON.parse(config.payload_filter_json) as unknown) : null,
  }));
}

/** Whether any configuration of the tenant is subscribed to the event type `tipo`: an event nobody receives need not be recorded. */
export async function hasSubscribers(db: Knex, usuarioId: string, tipo: string): Promise<boolean> {
  const row: unknown = await db('webhook_configs as c')
    .join('webhook_subscriptions as s', 's.config_id', 'c.id')
    .where({ 'c.usuario_id': usuarioId, 's.event_type': tipo })
    .first('c.id');
  return row !== undefined;
}

/**
 * A delivery of the event to each subscriber: `pendente` when it is enabled, `ignorada` when not,
 * `filtrada` when its filter does not let `message` through; the ones the worker may take.
 */
export async function insertDeliveries(
  trx: Knex.Transaction,
  eventId: string,
  subscribers: readonly Subscriber[],
  now: number,
  message?: WebhookMessage,
): Promise<{ count: number; waiting: Candidate[] }> {
  const statuses = subscribers.map((subscriber) => statusAtPublish(subscriber, message));
  const rows = subscribers.map((subscriber, index) => newDeliveryRow(eventId, subscriber.configId, statuses[index]!, now));
  for (let i = 0; i < rows.length; i += 100) await trx('webhook_deliveries').insert(rows.slice(i, i + 100));
  const waiting = subscribers.filter((_, index) => statuses[index] === 'pendente').map(({ configId, tenant }) => ({ configId, tenant }));
  return { count: rows.length, waiting };
}

function statusAtPublish(subscriber: Subscriber, message: WebhookMessage | undefined): 'pendente' | 'ignorada' | 'filtrada' {
  if (!subscriber.enabled) return 'ignorada';
  return message === undefined || matchesFilter(subscriber.filter, message) ? 'pendente' : 'filtrada';
}

async function findPublished(db: Knex | Knex.Transaction, producer: string, idEvento: string): Promise<Published | undefined> {
  const rows: DbRow[] = await db('webhook_events').where({ producer, id_evento: idEvento }).select('id');
  if (!rows[0]) return undefined;
  const id = String(rows[0].id);
  const counted: DbRow[] = await db('webhook_deliveries').where({ event_id: id }).count({ count: '*' });
  return { id, entregas: toNumber(counted[0]?.count), repeated: true, waiting: [] };
}

function newDeliveryRow(eventId: string, configId: string, status: 'pendente' | 'ignorada' | 'filtrada', now: number) {
  return {
    id: newId('msg', now),
    event_id: eventId,
    config_id: configId,
    status,
    attempts: 0,
    created_at: now,
    next_attempt_at: status === 'pendente' ? now : null,
  };
}

/** A `webhook.teste` event for one configuration, sent even while it is disabled (to check a receiver first). */
export async function createTestDelivery(
  db: Knex,
  configId: string,
  usuarioId: string,
  producer: string,
  now: number,
  /** Runs in the transaction before anything is written; a throw refuses the test event (its rate). */
  guard?: (trx: Knex.Transaction) => Promise<void>,
): Promise<string> {
  await ensureTenantRow(db, usuarioId);
  return db.transaction(async (trx) => {
    await guard?.(trx);
    const eventId = newId('evt', now);
    await trx('webhook_events').insert({
      id: eventId,
      producer,
      id_evento: null,
      tipo: TEST_EVENT_TYPE,
      usuario_id: usuarioId,
      dados_json: JSON.stringify({ mensagem: TEST_MESSAGE_TEXT }),
      created_at: now,
    });
    const row = newDeliveryRow(eventId, configId, 'pendente', now);
    await trx('webhook_deliveries').insert(row);
    return row.id;
  });
}

/**
 * Queues a delivery for an attempt now, whatever its state, unless an attempt of it is in flight
 * (a live lease): clearing that lease would drop the attempt's record and send the message twice
 * at once. Answers whether it was queued. The same id (webhook-id) goes out.
 */
export async function requeueDelivery(db: Knex, deliveryId: string, now: number): Promise<boolean> {
  const updated = await notInFlight(db('webhook_deliveries').where({ id: deliveryId }), now).update({
    status: 'pendente',
    next_attempt_at: now,
    lease_owner: null,
    lease_until: null,
    failing_since: null,
  });
  return updated === 1;
}

/** Failed and skipped deliveries of a configuration created since `since`, queued again; how many. */
export async function recoverDeliveries(db: Knex, configId: string, since: number, now: number): Promise<number> {
  return notInFlight(db('webhook_deliveries').where({ config_id: configId }), now)
    .whereIn('status', ['falhou', 'ignorada'])
    .andWhere('created_at', '>=', since)
    .update({ status: 'pendente', next_attempt_at: now, lease_owner: null, lease_until: null, failing_since: null });
}

export function notInFlight(query: Knex.QueryBuilder, now: number): Knex.QueryBuilder {
  return query.andWhere((lease) => void lease.whereNull('lease_until').orWhere('lease_until', '<', now));
}

/**
 * A configuration's queue head, as a query the caller selects from: its oldest pending delivery in
 * publication order (created_at, then id), through (config_id, status, created_at).
 */
export function headOfQueue(db: Knex | Knex.Transaction, configId: string): Knex.QueryBuilder {
  return db('webhook_deliveries').where({ config_id: configId, status: 'pendente' }).orderBy('created_at').orderBy('id').limit(1);
}
