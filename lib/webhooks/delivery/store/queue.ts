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
 * Records events and their fan-out in one transaction: a delivery for each configuration of the
 * event's tenant subscribed to its type (webhook_subscriptions); `pendente` when the configuration is
 * enabled, `ignorada` (kept for a later recovery) when it is not, `filtrada` when its content filter
 * does not let the event through (payload control, issue 46: recorded, never queued). An idEvento the
 * producer already published, or that comes twice in `inputs`, answers the first event and creates
 * nothing. Answers each input's event in their order. A batch (issue 45 §5) costs a few statements
 * whatever its size: the events in one insert, their subscribers in one query, their deliveries in
 * inserts of 100; its events are 1 ms apart, so an ordered configuration receives them in the order given.
 */
export async function publishEvents(
  db: Knex,
  producer: string,
  inputs: readonly PublishEvent[],
  now: number,
  /** Runs in the transaction before anything is written, with how many new events would be; a throw refuses them all (the publish rate). */
  guard?: (trx: Knex.Transaction, count: number) => Promise<void>,
): Promise<Published[]> {
  for (const tenant of new Set(inputs.map((input) => input.usuarioId))) await ensureTenantRow(db, tenant);
  const record = () => db.transaction((trx) => recordEvents(trx, producer, inputs, now, guard));
  try {
    return await record();
  } catch (error) {
    // An idEvento published at the same moment by another request: once that one has committed,
    // the same batch again answers its event (and still records the rest).
    if (inputs.some((input) => input.idEvento !== undefined) && isUniqueViolation(error)) return record();
    throw error;
  }
}

/** One event: publishEvents with one input. */
export async function publishEvent(
  db: Knex,
  producer: string,
  input: PublishEvent,
  now: number,
  guard?: (trx: Knex.Transaction) => Promise<void>,
): Promise<Published> {
  const [published] = await publishEvents(db, producer, [input], now, guard);
  return published!;
}

async function recordEvents(
  trx: Knex.Transaction,
  producer: string,
  inputs: readonly PublishEvent[],
  now: number,
  guard: ((trx: Knex.Transaction, count: number) => Promise<void>) | undefined,
): Promise<Published[]> {
  const answers = await findPublished(
    trx,
    producer,
    inputs.flatMap((input) => (input.idEvento === undefined ? [] : [input.idEvento])),
  );
  // The inputs that make new events: those without an idEvento, and each idEvento's first, unless published before.
  const seen = new Set<string>();
  const fresh = inputs.filter(({ idEvento }) => {
    if (idEvento === undefined) return true;
    const first = !seen.has(idEvento);
    seen.add(idEvento);
    return first && !answers.has(idEvento);
  });
  if (fresh.length > 0) await guard?.(trx, fresh.length);
  const events = fresh.map((input, index) => ({
    id: newId('evt', now + index),
    idEvento: input.idEvento ?? null,
    // The contract's flag, stored as the event type a receiver sees: the one vocabulary of the columns.
    tipo: EVENT_TYPE_OF_FLAG[input.tipo],
    usuarioId: input.usuarioId,
    dados: input.dados,
    createdAt: now + index,
  }));
  await insertInChunks(
    trx,
    'webhook_events',
    events.map((event) => ({
      id: event.id,
      producer,
      id_evento: event.idEvento,
      tipo: event.tipo,
      usuario_id: event.usuarioId,
      dados_json: JSON.stringify(event.dados),
      created_at: event.createdAt,
    })),
  );
  const subscribers = await subscribersOf(trx, events);
  const rows: ReturnType<typeof newDeliveryRow>[] = [];
  const published = events.map((event) => {
    const fanOut = deliveriesOf(
      event.id,
      subscribers.get(subscriptionKey(event.usuarioId, event.tipo)) ?? [],
      event.createdAt,
      messageOf(event),
    );
    rows.push(...fanOut.rows);
    if (event.idEvento !== null) answers.set(event.idEvento, { id: event.id, entregas: fanOut.rows.length, repeated: true, waiting: [] });
    return { id: event.id, entregas: fanOut.rows.length, repeated: false, waiting: fanOut.waiting };
  });
  await insertInChunks(trx, 'webhook_deliveries', rows);
  // In the inputs' order: a new event's outcome, or the answer of the first event of its idEvento.
  let next = 0;
  return inputs.map((input) => (input === fresh[next] ? published[next++]! : answers.get(input.idEvento!)!));
}

/** A fan-out's targets: the tenant's configurations subscribed to the event type `tipo` (webhook_subscriptions), whether each is enabled, and its content filter. */
export type Subscriber = { configId: string; tenant: string; enabled: boolean; filter?: unknown };

/** Rows inserted 100 a statement: few round trips, and within Oracle's bind limit. */
async function insertInChunks(trx: Knex.Transaction, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 100) await trx(table).insert(rows.slice(i, i + 100));
}

const subscriptionKey = (usuarioId: string, tipo: string) => `${usuarioId} ${tipo}`;

export async function subscribedConfigs(trx: Knex.Transaction, usuarioId: string, tipo: string): Promise<Subscriber[]> {
  return (await subscribersOf(trx, [{ usuarioId, tipo }])).get(subscriptionKey(usuarioId, tipo)) ?? [];
}

/** The subscribers of each (tenant, event type) of these events, in one query, by subscriptionKey. */
async function subscribersOf(
  trx: Knex.Transaction,
  events: readonly { usuarioId: string; tipo: string }[],
): Promise<Map<string, Subscriber[]>> {
  const bySubscription = new Map<string, Subscriber[]>();
  if (events.length === 0) return bySubscription;
  const wanted = new Set(events.map((event) => subscriptionKey(event.usuarioId, event.tipo)));
  const configs: DbRow[] = await trx('webhook_configs as c')
    .join('webhook_subscriptions as s', 's.config_id', 'c.id')
    .whereIn('c.usuario_id', [...new Set(events.map((event) => event.usuarioId))])
    .whereIn('s.event_type', [...new Set(events.map((event) => event.tipo))])
    .select('c.id', 'c.usuario_id', 's.event_type', 'c.enabled', 'c.payload_filter_json');
  for (const config of configs) {
    const key = subscriptionKey(String(config.usuario_id), String(config.event_type));
    // A tenant of the batch subscribed to a type that only another tenant's event has.
    if (!wanted.has(key)) continue;
    const subscriber = {
      configId: String(config.id),
      tenant: String(config.usuario_id),
      enabled: toBoolean(config.enabled),
      filter: typeof config.payload_filter_json === 'string' ? (JSON.parse(config.payload_filter_json) as unknown) : null,
    };
    bySubscription.set(key, [...(bySubscription.get(key) ?? []), subscriber]);
  }
  return bySubscription;
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
 * `filtrada` when its filter does not let `message` through (none: no filter applies); `waiting`,
 * the ones the worker may take.
 */
function deliveriesOf(eventId: string, subscribers: readonly Subscriber[], now: number, message?: WebhookMessage) {
  const statuses = subscribers.map((subscriber) => statusAtPublish(subscriber, message));
  const rows = subscribers.map((subscriber, index) => newDeliveryRow(eventId, subscriber.configId, statuses[index]!, now));
  const waiting: Candidate[] = subscribers
    .filter((_, index) => statuses[index] === 'pendente')
    .map(({ configId, tenant }) => ({ configId, tenant }));
  return { rows, waiting };
}

/** One event's fan-out written (the operational events', store/operational.ts): deliveriesOf, inserted. */
export async function insertDeliveries(
  trx: Knex.Transaction,
  eventId: string,
  subscribers: readonly Subscriber[],
  now: number,
): Promise<{ count: number; waiting: Candidate[] }> {
  const { rows, waiting } = deliveriesOf(eventId, subscribers, now);
  await insertInChunks(trx, 'webhook_deliveries', rows);
  return { count: rows.length, waiting };
}

function statusAtPublish(subscriber: Subscriber, message: WebhookMessage | undefined): 'pendente' | 'ignorada' | 'filtrada' {
  if (!subscriber.enabled) return 'ignorada';
  return message === undefined || matchesFilter(subscriber.filter, message) ? 'pendente' : 'filtrada';
}

/** The events the producer already published under these idEventos, each with its count of deliveries, by idEvento. */
async function findPublished(trx: Knex.Transaction, producer: string, idEventos: readonly string[]): Promise<Map<string, Published>> {
  const found = new Map<string, Published>();
  if (idEventos.length === 0) return found;
  const rows: DbRow[] = await trx('webhook_events as e')
    .leftJoin('webhook_deliveries as d', 'd.event_id', 'e.id')
    .where('e.producer', producer)
    .whereIn('e.id_evento', [...new Set(idEventos)])
    .groupBy('e.id', 'e.id_evento')
    .select('e.id', 'e.id_evento')
    .count({ count: 'd.id' });
  for (const row of rows)
    found.set(String(row.id_evento), { id: String(row.id), entregas: toNumber(row.count), repeated: true, waiting: [] });
  return found;
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

/** Rows no live instance holds. `now` may be a precompiled query's placeholder (lib/db/precompiled.ts). */
export function notInFlight(query: Knex.QueryBuilder, now: Knex.Value): Knex.QueryBuilder {
  return query.andWhere((lease) => void lease.whereNull('lease_until').orWhere('lease_until', '<', now));
}

/**
 * A configuration's queue head, as a query the caller selects from: its oldest pending delivery in
 * publication order (created_at, then id), through (config_id, status, created_at).
 */
export function headOfQueue(db: Knex | Knex.Transaction, configId: string): Knex.QueryBuilder {
  return db('webhook_deliveries').where({ config_id: configId, status: 'pendente' }).orderBy('created_at').orderBy('id').limit(1);
}
