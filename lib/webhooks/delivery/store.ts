import 'server-only';
import type { Knex } from 'knex';
import { dialectOf, isUniqueViolation, toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import type { AttemptError, DeliveryStatus, PublishEvent } from '../delivery-contract';
import { EVENT_COLUMNS } from '../repository';
import { newId } from './ids';

/**
 * Webhook events and deliveries in the app database (SQLite, PostgreSQL or Oracle alike). Every
 * state change is its own committed write: the claim before an attempt, the outcome after it, so a
 * process killed mid-attempt loses nothing; its lease runs out and another claim sends it again,
 * with the same webhook-id.
 */
export type EventRow = {
  id: string;
  idEvento: string | null;
  tipo: string;
  usuarioId: string;
  dados: Record<string, unknown>;
  createdAt: number;
};

export type DeliveryRow = {
  id: string;
  eventId: string;
  configId: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastDurationMs: number | null;
  lastBody: string | null;
  lastError: AttemptError | null;
};

const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));
const optionalString = (value: unknown) => (typeof value === 'string' ? value : null);

export function deliveryFromRow(row: DbRow): DeliveryRow {
  return {
    id: String(row.id),
    eventId: String(row.event_id),
    configId: String(row.config_id),
    status: String(row.status) as DeliveryStatus,
    attempts: toNumber(row.attempts),
    createdAt: toNumber(row.created_at),
    nextAttemptAt: optionalNumber(row.next_attempt_at),
    lastAttemptAt: optionalNumber(row.last_attempt_at),
    lastStatus: optionalNumber(row.last_status),
    lastDurationMs: optionalNumber(row.last_duration_ms),
    lastBody: optionalString(row.last_body),
    lastError: optionalString(row.last_error) as AttemptError | null,
  };
}

export function eventFromRow(row: DbRow): EventRow {
  return {
    id: String(row.id),
    idEvento: optionalString(row.id_evento),
    tipo: String(row.tipo),
    usuarioId: String(row.usuario_id),
    dados: JSON.parse(String(row.dados_json)) as Record<string, unknown>,
    createdAt: toNumber(row.created_at),
  };
}

export type Published = { id: string; entregas: number; repeated: boolean };

/**
 * Records an event and its fan-out in one transaction: a delivery for each configuration of the
 * tenant whose flag for the event is on; `pendente` when the configuration is enabled, `ignorada`
 * (kept for a later recovery) when it is not. The same idEvento from the same producer answers the
 * first event and creates nothing.
 */
export async function publishEvent(db: Knex, producer: string, input: PublishEvent, now: number): Promise<Published> {
  try {
    return await db.transaction(async (trx) => {
      if (input.idEvento !== undefined) {
        const earlier = await findPublished(trx, producer, input.idEvento);
        if (earlier) return earlier;
      }
      const eventId = newId('evt', now);
      await trx('webhook_events').insert({
        id: eventId,
        producer,
        id_evento: input.idEvento ?? null,
        tipo: input.tipo,
        usuario_id: input.usuarioId,
        dados_json: JSON.stringify(input.dados),
        created_at: now,
      });
      const configs: DbRow[] = await trx('webhook_configs')
        .where({ usuario_id: input.usuarioId, [EVENT_COLUMNS[input.tipo]]: true })
        .select('id', 'enabled');
      const rows = configs.map((config) => newDeliveryRow(eventId, String(config.id), toBoolean(config.enabled), now));
      for (let i = 0; i < rows.length; i += 100) await trx('webhook_deliveries').insert(rows.slice(i, i + 100));
      return { id: eventId, entregas: rows.length, repeated: false };
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

async function findPublished(db: Knex | Knex.Transaction, producer: string, idEvento: string): Promise<Published | undefined> {
  const rows: DbRow[] = await db('webhook_events').where({ producer, id_evento: idEvento }).select('id');
  if (!rows[0]) return undefined;
  const id = String(rows[0].id);
  const counted: DbRow[] = await db('webhook_deliveries').where({ event_id: id }).count({ count: '*' });
  return { id, entregas: toNumber(counted[0]?.count), repeated: true };
}

function newDeliveryRow(eventId: string, configId: string, enabled: boolean, now: number) {
  return {
    id: newId('msg', now),
    event_id: eventId,
    config_id: configId,
    status: enabled ? 'pendente' : 'ignorada',
    attempts: 0,
    created_at: now,
    next_attempt_at: enabled ? now : null,
  };
}

/** A `webhook.teste` event for one configuration, sent even while it is disabled (to check a receiver first). */
export async function createTestDelivery(db: Knex, configId: string, usuarioId: string, producer: string, now: number): Promise<string> {
  return db.transaction(async (trx) => {
    const eventId = newId('evt', now);
    await trx('webhook_events').insert({
      id: eventId,
      producer,
      id_evento: null,
      tipo: 'webhook.teste',
      usuario_id: usuarioId,
      dados_json: JSON.stringify({ mensagem: 'Evento de teste enviado pelo Console de Integração.' }),
      created_at: now,
    });
    const row = newDeliveryRow(eventId, configId, true, now);
    await trx('webhook_deliveries').insert(row);
    return row.id;
  });
}

/**
 * Takes up to `limit` due deliveries for this process: pending, due, and not leased (or leased by
 * an instance whose lease ran out). On PostgreSQL and Oracle the rows are locked with SKIP LOCKED,
 * so instances claiming together take different rows instead of waiting on each other; SQLite has
 * one writer. The lease outlives one attempt; the outcome write clears it.
 */
export async function claimDue(db: Knex, owner: string, limit: number, now: number, leaseMs: number): Promise<string[]> {
  return db.transaction(async (trx) => {
    const due = trx('webhook_deliveries')
      .where('status', 'pendente')
      .andWhere('next_attempt_at', '<=', now)
      .andWhere((query) => void query.whereNull('lease_until').orWhere('lease_until', '<', now))
      .select('id');
    const dialect = dialectOf(db);
    let rows: DbRow[];
    if (dialect === 'postgres') rows = (await due.orderBy('next_attempt_at').limit(limit).forUpdate().skipLocked()) as DbRow[];
    else if (dialect === 'oracle') rows = rowsOf(await trx.raw(ORACLE_CLAIM_SQL, [now, now, limit]));
    else rows = (await due.orderBy('next_attempt_at').limit(limit)) as DbRow[];
    const ids = rows.map((row) => String(row.id));
    for (let i = 0; i < ids.length; i += 100) {
      await trx('webhook_deliveries')
        .whereIn('id', ids.slice(i, i + 100))
        .update({ lease_owner: owner, lease_until: now + leaseMs });
    }
    return ids;
  });
}

/**
 * Oracle's claim, written out: knex refuses SKIP LOCKED on Oracle, and Oracle cannot lock a FETCH
 * FIRST query. ROWNUM is applied before the lock, so a claim may take fewer rows than it could;
 * the next pump takes the rest. Identifiers are quoted lowercase, as knex created them.
 */
export const ORACLE_CLAIM_SQL =
  'select "id" from "webhook_deliveries" where "status" = \'pendente\' and "next_attempt_at" <= ? ' +
  'and ("lease_until" is null or "lease_until" < ?) and rownum <= ? for update skip locked';

/** knex.raw answers the driver's shape: rows, or an object holding them. */
function rowsOf(result: unknown): DbRow[] {
  if (Array.isArray(result)) return result as DbRow[];
  const { rows } = (result ?? {}) as { rows?: unknown };
  return Array.isArray(rows) ? (rows as DbRow[]) : [];
}

export type AttemptContext = {
  delivery: DeliveryRow;
  event: EventRow;
  config: {
    id: string;
    url: string;
    headers: { chave: string; valor: string }[];
    enabled: boolean;
    secretEnc: string;
    previousSecretEnc: string | null;
    previousSecretUntil: number | null;
    failingSince: number | null;
  };
};

export async function loadAttemptContext(db: Knex, deliveryId: string): Promise<AttemptContext | undefined> {
  const [deliveryRow] = (await db('webhook_deliveries').where({ id: deliveryId })) as DbRow[];
  if (!deliveryRow) return undefined;
  const delivery = deliveryFromRow(deliveryRow);
  const [eventRow] = (await db('webhook_events').where({ id: delivery.eventId })) as DbRow[];
  const [configRow] = (await db('webhook_configs').where({ id: delivery.configId })) as DbRow[];
  if (!eventRow || !configRow) return undefined;
  return {
    delivery,
    event: eventFromRow(eventRow),
    config: {
      id: String(configRow.id),
      url: String(configRow.url),
      headers: JSON.parse(String(configRow.headers_json)) as { chave: string; valor: string }[],
      enabled: toBoolean(configRow.enabled),
      secretEnc: String(configRow.secret_enc),
      previousSecretEnc: optionalString(configRow.previous_secret_enc),
      previousSecretUntil: optionalNumber(configRow.previous_secret_until),
      failingSince: optionalNumber(configRow.failing_since),
    },
  };
}

export type AttemptOutcome = {
  startedAt: number;
  durationMs: number;
  status: number | null;
  body: string | null;
  error: AttemptError | null;
  requestHeaders: Record<string, string>;
};

/** What happens to the delivery and its configuration after an attempt (decided by the worker). */
export type AttemptDecision = {
  status: DeliveryStatus;
  nextAttemptAt: number | null;
  /** Disable the configuration, for this reason. */
  disable?: 'receptor-410' | 'falhas-consecutivas';
  /** The configuration's failing_since after this attempt (null: it just succeeded). */
  failingSince: number | null;
};

export type AttemptRecord = { context: AttemptContext; outcome: AttemptOutcome; decision: AttemptDecision };

/**
 * Writes attempts and their consequences, several in one transaction (one commit, one fsync on
 * SQLite, for attempts that ended together), each only if this process still holds the delivery's
 * lease: an instance whose lease ran out must not overwrite the one that took over. Answers, per
 * record, whether it was written.
 */
export async function recordAttempts(db: Knex, owner: string, records: readonly AttemptRecord[]): Promise<boolean[]> {
  return db.transaction(async (trx) => {
    const written: boolean[] = [];
    for (const record of records) written.push(await recordOne(trx, owner, record));
    return written;
  });
}

async function recordOne(trx: Knex.Transaction, owner: string, { context, outcome, decision }: AttemptRecord): Promise<boolean> {
  const attemptNo = context.delivery.attempts + 1;
  const updated = await trx('webhook_deliveries').where({ id: context.delivery.id, lease_owner: owner }).update({
    status: decision.status,
    attempts: attemptNo,
    next_attempt_at: decision.nextAttemptAt,
    lease_owner: null,
    lease_until: null,
    last_attempt_at: outcome.startedAt,
    last_status: outcome.status,
    last_duration_ms: outcome.durationMs,
    last_body: outcome.body,
    last_error: outcome.error,
  });
  if (updated !== 1) return false;
  await trx('webhook_attempts').insert({
    id: newId('att', outcome.startedAt),
    delivery_id: context.delivery.id,
    attempt_no: attemptNo,
    started_at: outcome.startedAt,
    duration_ms: outcome.durationMs,
    status: outcome.status,
    body_excerpt: outcome.body,
    error: outcome.error,
    request_headers_json: JSON.stringify(outcome.requestHeaders),
  });
  const configUpdate: Record<string, unknown> = {};
  if (decision.failingSince !== context.config.failingSince) configUpdate.failing_since = decision.failingSince;
  if (decision.disable) Object.assign(configUpdate, { enabled: false, disabled_reason: decision.disable, disabled_at: outcome.startedAt });
  if (Object.keys(configUpdate).length > 0) {
    // Only a configuration still enabled is disabled: a reason given by staff is not overwritten.
    const query = trx('webhook_configs').where({ id: context.config.id });
    await (decision.disable ? query.andWhere({ enabled: true }) : query).update(configUpdate);
  }
  return true;
}

/** A delivery claimed for a configuration that is disabled now: skipped, to be recovered later. */
export async function skipDelivery(db: Knex, owner: string, deliveryId: string): Promise<void> {
  await db('webhook_deliveries')
    .where({ id: deliveryId, lease_owner: owner })
    .update({ status: 'ignorada', next_attempt_at: null, lease_owner: null, lease_until: null });
}

/** Queues a delivery for an attempt now, whatever its state; the same id (webhook-id) goes out. */
export async function requeueDelivery(db: Knex, deliveryId: string, now: number): Promise<void> {
  await db('webhook_deliveries')
    .where({ id: deliveryId })
    .update({ status: 'pendente', next_attempt_at: now, lease_owner: null, lease_until: null });
}

/** Failed and skipped deliveries of a configuration created since `since`, queued again; how many. */
export async function recoverDeliveries(db: Knex, configId: string, since: number, now: number): Promise<number> {
  return db('webhook_deliveries')
    .where({ config_id: configId })
    .whereIn('status', ['falhou', 'ignorada'])
    .andWhere('created_at', '>=', since)
    .update({ status: 'pendente', next_attempt_at: now, lease_owner: null, lease_until: null });
}

export async function listDeliveries(
  db: Knex,
  configId: string,
  filter: { status?: DeliveryStatus; limit: number; before?: number },
): Promise<{ delivery: DeliveryRow; tipo: string; idEvento: string }[]> {
  let query = db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .where('d.config_id', configId)
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(filter.limit)
    .select('d.*', 'e.tipo as event_tipo', 'e.id_evento as event_id_evento');
  if (filter.status) query = query.andWhere('d.status', filter.status);
  if (filter.before !== undefined) query = query.andWhere('d.created_at', '<', filter.before);
  const rows = (await query) as DbRow[];
  return rows.map((row) => ({
    delivery: deliveryFromRow(row),
    tipo: String(row.event_tipo),
    idEvento: optionalString(row.event_id_evento) ?? String(row.event_id),
  }));
}

export async function findDelivery(db: Knex, configId: string, deliveryId: string) {
  const context = await loadAttemptContext(db, deliveryId);
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
    })),
  };
}
