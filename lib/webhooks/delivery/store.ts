import 'server-only';
import type { Knex } from 'knex';
import { dialectOf, hourOf, isUniqueViolation, lockForUpdate, toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import type { AttemptError, DeliveryStatus, PublishEvent } from '../delivery-contract';
import { circuitFromRow, EVENT_COLUMNS } from '../repository';
import { TEST_MESSAGE_TEXT } from '../message-contract';
import { TEST_EVENT_TYPE } from '../fields';
import { newId } from './ids';
import { afterAttempt, attemptCap, type CircuitSettings, type CircuitState } from './circuit';
import { fairShares, type Candidate, type InFlight } from './fair-share';

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
  /** While an attempt is in flight: until when the instance making it holds it. */
  leaseUntil: number | null;
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
    leaseUntil: optionalNumber(row.lease_until),
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

export type Published = {
  id: string;
  entregas: number;
  repeated: boolean;
  /** The configurations that got a pending delivery, with their tenant (for the worker; not part of the answer). */
  waiting: Candidate[];
};

/**
 * Records an event and its fan-out in one transaction: a delivery for each configuration of the
 * tenant whose flag for the event is on; `pendente` when the configuration is enabled, `ignorada`
 * (kept for a later recovery) when it is not. The same idEvento from the same producer answers the
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
      const waiting = rows.filter((row) => row.status === 'pendente').map((row) => ({ configId: row.config_id, tenant: input.usuarioId }));
      return { id: eventId, entregas: rows.length, repeated: false, waiting };
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
  return { id, entregas: toNumber(counted[0]?.count), repeated: true, waiting: [] };
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
      tipo: 'webhook.teste',
      usuario_id: usuarioId,
      dados_json: JSON.stringify({ mensagem: TEST_MESSAGE_TEXT }),
      created_at: now,
    });
    const row = newDeliveryRow(eventId, configId, true, now);
    await trx('webhook_deliveries').insert(row);
    return row.id;
  });
}

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

/**
 * Locks the tenant's row (ensureTenantRow first) until the transaction ends: a configuration
 * create for the same tenant on another instance waits here, then counts what this one added.
 * SQLite has one writer: nothing to lock.
 */
export async function lockTenantRow(trx: Knex.Transaction, usuarioId: string): Promise<void> {
  await lockForUpdate(trx, trx('webhook_tenants').where({ usuario_id: usuarioId }).select('usuario_id'));
}

export type ClaimSettings = {
  /** Free worker slots of this process. */
  limit: number;
  now: number;
  leaseMs: number;
  /** Attempts in flight to one configuration at once, across every instance. */
  perEndpoint: number;
  /** Attempts in flight for one tenant (all its configurations) at once, across every instance. */
  perTenant: number;
};

/**
 * Every configuration with due deliveries whose circuit lets an attempt through, with its tenant,
 * those whose deliveries have waited longest first. No window: a claim must see every tenant with
 * work, however many configurations another one has. It probes each configuration once, so the
 * worker keeps its answer for a second and claims among it. Tenants without their lock row yet
 * (configurations older than the row's first event) get it here.
 */
export async function waitingCandidates(db: Knex, now: number): Promise<Candidate[]> {
  const rows = (await waitingConfigs(db, now)) as DbRow[];
  const missing = new Set(
    rows.filter((row) => row.tenant_row === null || row.tenant_row === undefined).map((row) => String(row.usuario_id)),
  );
  for (const tenant of missing) await ensureTenantRow(db, tenant);
  return rows.map((row) => ({ configId: String(row.config_id), tenant: String(row.usuario_id) }));
}

export type Claim = {
  ids: string[];
  /** Candidates that had fewer due deliveries than the slots offered: nothing more to claim for now. */
  exhausted: string[];
};

/**
 * Takes up to `limit` due deliveries for this process among `candidates` (waitingCandidates),
 * fairly across tenants and then configurations (fair-share.ts):
 * 1. shares handed out without locks, to choose which tenants to claim for;
 * 2. those tenants' rows in webhook_tenants locked on PostgreSQL and Oracle with SKIP LOCKED: one
 *    instance at a time claims for a tenant, so the attempts it counts in flight (live leases) are
 *    every instance's, and both caps (per tenant, per configuration) hold across them; a tenant
 *    another instance is claiming for right now is skipped, not waited for. SQLite has one writer;
 * 3. shares handed out again among the locked tenants, each configuration capped by its circuit as
 *    it is now (the per-endpoint cap; 1 while half-open; 0 while open);
 * 4. each configuration's oldest due deliveries for its slots, leased to this process.
 * The lease outlives one attempt; the outcome write clears it.
 */
export async function claimAmong(db: Knex, owner: string, settings: ClaimSettings, candidates: readonly Candidate[]): Promise<Claim> {
  const { limit, now, leaseMs, perEndpoint, perTenant } = settings;
  if (limit <= 0 || candidates.length === 0) return { ids: [], exhausted: [] };
  return db.transaction(async (trx) => {
    const counted = await attemptsInFlight(trx, now, candidates);
    const chosen = fairShares(candidates, counted, { limit, perTenant, capOf: () => perEndpoint });
    const tenants = new Set(candidates.filter((candidate) => chosen.has(candidate.configId)).map((candidate) => candidate.tenant));
    const locked = await lockTenants(trx, [...tenants]);
    const mine = candidates.filter((candidate) => locked.has(candidate.tenant));
    const circuits = await circuitsOf(
      trx,
      mine.map((candidate) => candidate.configId),
    );
    const inFlight = dialectOf(trx) === 'sqlite' ? counted : await attemptsInFlight(trx, now, candidates);
    const capOf = (configId: string) => attemptCap({ openUntil: circuits.get(configId) ?? null }, now, perEndpoint);
    // A configuration deleted since the look has no circuit row: it gets nothing.
    const shares = [
      ...fairShares(
        mine.filter((candidate) => circuits.has(candidate.configId)),
        inFlight,
        { limit, perTenant, capOf },
      ),
    ];
    const picked = await oldestDue(trx, now, shares);
    const ids = picked.map((row) => row.id);
    const exhausted = shares
      .filter(([configId, share]) => picked.filter((row) => row.configId === configId).length < share)
      .map(([id]) => id);
    for (let i = 0; i < ids.length; i += 100) {
      await trx('webhook_deliveries')
        .whereIn('id', ids.slice(i, i + 100))
        .update({ lease_owner: owner, lease_until: now + leaseMs });
    }
    return { ids, exhausted };
  });
}

/** Looks for the waiting configurations and claims among them: one call (tests, tools). */
export async function claimDue(db: Knex, owner: string, settings: ClaimSettings): Promise<string[]> {
  return (await claimAmong(db, owner, settings, await waitingCandidates(db, settings.now))).ids;
}

/**
 * Each configuration's `count` oldest due deliveries, in one statement per 50 configurations (a
 * UNION ALL of index range scans on config_id, status, next_attempt_at) rather than one each.
 */
async function oldestDue(trx: Knex.Transaction, now: number, shares: readonly [string, number][]) {
  const picked: { id: string; configId: string }[] = [];
  for (let i = 0; i < shares.length; i += 50) {
    const [first, ...rest] = shares
      .slice(i, i + 50)
      .map(([configId, count], index) =>
        trx
          .select('id', 'config_id')
          .from(
            dueDeliveries(trx, now)
              .andWhere('config_id', configId)
              .orderBy('next_attempt_at')
              .limit(count)
              .select('id', 'config_id')
              .as(`q${index}`),
          ),
      );
    const rows = (await (rest.length > 0 ? first!.unionAll(rest) : first!)) as DbRow[];
    picked.push(...rows.map((row) => ({ id: String(row.id), configId: String(row.config_id) })));
  }
  return picked;
}

/**
 * Configurations with due deliveries whose circuit lets an attempt through (closed, or open with
 * its period over: the probe), those whose deliveries have waited longest first. One index probe
 * per configuration (config_id, status, next_attempt_at) whatever the backlog. Deliveries in flight
 * count as waiting here: the claim's count of attempts in flight sorts them out.
 */
function waitingConfigs(db: Knex, now: number) {
  const oldestDue = db('webhook_deliveries as d')
    .min('d.next_attempt_at')
    .whereRaw('?? = ??', ['d.config_id', 'c.id'])
    .andWhere('d.status', 'pendente')
    .andWhere('d.next_attempt_at', '<=', now);
  const configs = db('webhook_configs as c')
    .leftJoin('webhook_tenants as t', 't.usuario_id', 'c.usuario_id')
    .where((query) => void query.whereNull('c.circuit_open_until').orWhere('c.circuit_open_until', '<=', now))
    .select('c.id as config_id', 'c.usuario_id', 't.usuario_id as tenant_row', oldestDue.as('oldest'));
  return db
    .from(configs.as('w'))
    .whereNotNull('oldest')
    .orderBy('oldest')
    .orderBy('config_id')
    .select('config_id', 'usuario_id', 'tenant_row');
}

/** A configuration's deliveries due now, as a subquery correlated on `configIdColumn` (the triage's ranking, repository.ts). */
export function dueDeliveriesOf(db: Knex, configIdColumn: string, now: number): Knex.QueryBuilder {
  return db('webhook_deliveries as d')
    .whereRaw('?? = ??', ['d.config_id', configIdColumn])
    .andWhere('d.status', 'pendente')
    .andWhere('d.next_attempt_at', '<=', now);
}

export type Backlog = { due: number; oldestDueAt: number | null };

function backlogOf(row: DbRow | undefined): Backlog {
  const oldest = row?.oldest;
  return { due: toNumber(row?.due ?? 0), oldestDueAt: oldest === null || oldest === undefined ? null : toNumber(oldest) };
}

function dueNow(db: Knex, now: number) {
  return db('webhook_deliveries')
    .where('status', 'pendente')
    .andWhere('next_attempt_at', '<=', now)
    .count({ due: '*' })
    .min({ oldest: 'next_attempt_at' });
}

/** Pending deliveries whose attempt is due, in flight or not, and the earliest due time among them: the metrics' backlog. */
export async function backlog(db: Knex, now: number): Promise<Backlog> {
  const row: DbRow | undefined = await dueNow(db, now).first();
  return backlogOf(row);
}

/** The backlog of each of these configurations (at most 1,000: Oracle's IN list); one without any is left out. */
export async function backlogByConfig(db: Knex, configIds: readonly string[], now: number): Promise<Map<string, Backlog>> {
  if (configIds.length === 0) return new Map();
  const rows: DbRow[] = await dueNow(db, now).select('config_id').whereIn('config_id', configIds).groupBy('config_id');
  return new Map(rows.map((row) => [String(row.config_id), backlogOf(row)]));
}

export type HourOfAttempts = { configId: string; hour: number; delivered: number; failed: number; durationMs: number };

/**
 * Each configuration's attempts since `since`, hour by hour: how many got a 2xx, how many failed,
 * and their summed duration (the console's delivery health). Read through webhook_attempts'
 * (config_id, started_at) index, one range per configuration (at most 1,000: Oracle's IN list).
 */
export async function hourlyAttempts(db: Knex, configIds: readonly string[], since: number): Promise<HourOfAttempts[]> {
  if (configIds.length === 0) return [];
  const hour = hourOf(db, 'started_at');
  const rows: DbRow[] = await db('webhook_attempts')
    .select('config_id', db.raw('? as ??', [hour, 'hora']))
    .select(db.raw('sum(case when ?? is null then 1 else 0 end) as ??', ['error', 'entregues']))
    .count({ n: '*' })
    .sum({ duracao: 'duration_ms' })
    .whereIn('config_id', configIds)
    .andWhere('started_at', '>=', since)
    .groupBy('config_id', hour);
  return rows.map((row) => {
    const delivered = toNumber(row.entregues);
    return {
      configId: String(row.config_id),
      hour: toNumber(row.hora),
      delivered,
      failed: toNumber(row.n) - delivered,
      durationMs: toNumber(row.duracao),
    };
  });
}

/** Pending deliveries whose time has come and that no live instance holds. */
function dueDeliveries(trx: Knex | Knex.Transaction, now: number) {
  return trx('webhook_deliveries')
    .where('status', 'pendente')
    .andWhere('next_attempt_at', '<=', now)
    .andWhere((query) => void query.whereNull('lease_until').orWhere('lease_until', '<', now));
}

/**
 * Locks the tenants' rows for this claim and answers those it got; a tenant another instance is
 * claiming for right now is skipped, not waited for. SQLite has one writer: every tenant, unlocked.
 */
async function lockTenants(trx: Knex.Transaction, tenants: readonly string[]): Promise<Set<string>> {
  if (tenants.length === 0) return new Set();
  const dialect = dialectOf(trx);
  if (dialect === 'sqlite') return new Set(tenants);
  const locked = new Set<string>();
  for (let i = 0; i < tenants.length; i += 1000) {
    const batch = tenants.slice(i, i + 1000);
    const rows =
      dialect === 'oracle'
        ? rowsOf(await trx.raw(oracleLockTenantsSql(batch.length), batch))
        : await trx('webhook_tenants').whereIn('usuario_id', batch).select<DbRow[]>('usuario_id').forUpdate().skipLocked();
    for (const row of rows) locked.add(String(row.usuario_id));
  }
  return locked;
}

/**
 * Oracle's lock, written out: knex refuses SKIP LOCKED on Oracle. Identifiers are quoted lowercase,
 * as knex created them; at most 1,000 binds (Oracle's IN list).
 */
export function oracleLockTenantsSql(count: number): string {
  const binds = Array.from({ length: count }, () => '?').join(', ');
  return `select "usuario_id" from "webhook_tenants" where "usuario_id" in (${binds}) for update skip locked`;
}

/** Each configuration's circuit (`openUntil`), read under the claim's tenant locks; a deleted one is missing. */
async function circuitsOf(trx: Knex.Transaction, configIds: readonly string[]): Promise<Map<string, number | null>> {
  const circuits = new Map<string, number | null>();
  for (let i = 0; i < configIds.length; i += 1000) {
    const rows = await trx('webhook_configs')
      .whereIn('id', configIds.slice(i, i + 1000))
      .select<DbRow[]>('id', 'circuit_open_until');
    for (const row of rows) circuits.set(String(row.id), optionalNumber(row.circuit_open_until));
  }
  return circuits;
}

/**
 * Attempts in flight (a live lease, any instance's) per configuration and per tenant. The rows are
 * few (at most every instance's WEBHOOK_CONCURRENCY) and found by lease_until; they are counted here
 * rather than with GROUP BY or a config_id filter, which SQLite would answer through a config_id
 * index, reading each configuration's whole backlog. Tenants come from the candidates, and from the
 * configurations' rows for the few in flight that are not among them (their circuit opened since).
 */
async function attemptsInFlight(trx: Knex.Transaction, now: number, candidates: readonly Candidate[]): Promise<InFlight> {
  const rows = await trx('webhook_deliveries').where('lease_until', '>=', now).select<DbRow[]>('config_id');
  const configs = new Map<string, number>();
  for (const row of rows) configs.set(String(row.config_id), (configs.get(String(row.config_id)) ?? 0) + 1);
  const tenantOf = new Map(candidates.map((candidate) => [candidate.configId, candidate.tenant]));
  const unknown = [...configs.keys()].filter((id) => !tenantOf.has(id));
  for (let i = 0; i < unknown.length; i += 1000) {
    const found = await trx('webhook_configs')
      .whereIn('id', unknown.slice(i, i + 1000))
      .select<DbRow[]>('id', 'usuario_id');
    for (const row of found) tenantOf.set(String(row.id), String(row.usuario_id));
  }
  const tenants = new Map<string, number>();
  for (const [configId, count] of configs) {
    const tenant = tenantOf.get(configId);
    if (tenant !== undefined) tenants.set(tenant, (tenants.get(tenant) ?? 0) + count);
  }
  return { configs, tenants };
}

/** Tenants known to have their lock row, per database handle: a row is never deleted. */
const knownTenants = new WeakMap<Knex, Set<string>>();

/**
 * The tenant's row in webhook_tenants (claims and configuration creates lock it), added the first
 * time it is needed: in a statement of its own, before the caller's transaction (on PostgreSQL a
 * duplicate key inside it would abort the whole transaction).
 */
export async function ensureTenantRow(db: Knex, tenant: string): Promise<void> {
  const known = knownTenants.get(db) ?? new Set<string>();
  knownTenants.set(db, known);
  if (known.has(tenant)) return;
  const [row] = await db('webhook_tenants').where({ usuario_id: tenant }).select<DbRow[]>('usuario_id');
  if (!row) {
    try {
      await db('webhook_tenants').insert({ usuario_id: tenant });
    } catch (error) {
      // Another instance or request added it at the same moment.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  known.add(tenant);
}

/**
 * Leases this process took but will not use: free for any instance at once (it is stopping), or
 * from `retryAt` on (their attempts could not even be prepared: no instant retry loop).
 */
export async function releaseClaims(db: Knex, owner: string, deliveryIds: readonly string[], retryAt?: number): Promise<void> {
  const later = retryAt === undefined ? {} : { next_attempt_at: retryAt };
  for (let i = 0; i < deliveryIds.length; i += 100) {
    await db('webhook_deliveries')
      .whereIn('id', deliveryIds.slice(i, i + 100))
      .andWhere({ lease_owner: owner })
      .update({ lease_owner: null, lease_until: null, ...later });
  }
}

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
    /** Its circuit when the attempt was claimed (openUntil set: the attempt is the probe). */
    circuitFailures: number;
    circuitOpenUntil: number | null;
  };
};

/**
 * The claimed deliveries with their events and configurations, in one statement whatever their
 * number (a round trip each, per attempt, showed on PostgreSQL). A delivery whose configuration
 * was deleted meanwhile is left out.
 */
export async function loadAttemptContexts(db: Knex, deliveryIds: readonly string[]): Promise<AttemptContext[]> {
  if (deliveryIds.length === 0) return [];
  const rows = await db('webhook_deliveries as d')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .join('webhook_configs as c', 'c.id', 'd.config_id')
    .whereIn('d.id', [...deliveryIds])
    .select<DbRow[]>(
      'd.*',
      ...CONTEXT_EVENT_COLUMNS.map((column) => `e.${column} as e_${column}`),
      ...CONTEXT_CONFIG_COLUMNS.map((column) => `c.${column} as c_${column}`),
    );
  return rows.map((row) => ({
    delivery: deliveryFromRow(row),
    event: eventFromRow({ ...unprefixed(row, 'e_', CONTEXT_EVENT_COLUMNS), id: row.event_id }),
    config: attemptConfigFromRow({ ...unprefixed(row, 'c_', CONTEXT_CONFIG_COLUMNS), id: row.config_id }),
  }));
}

const CONTEXT_EVENT_COLUMNS = ['id_evento', 'tipo', 'usuario_id', 'dados_json', 'created_at'] as const;
const CONTEXT_CONFIG_COLUMNS = [
  'url',
  'headers_json',
  'enabled',
  'secret_enc',
  'previous_secret_enc',
  'previous_secret_until',
  'failing_since',
  'circuit_failures',
  'circuit_open_until',
] as const;

function unprefixed(row: DbRow, prefix: string, columns: readonly string[]): DbRow {
  return Object.fromEntries(columns.map((column) => [column, row[`${prefix}${column}`]]));
}

function attemptConfigFromRow(row: DbRow): AttemptContext['config'] {
  return {
    id: String(row.id),
    url: String(row.url),
    headers: JSON.parse(String(row.headers_json)) as { chave: string; valor: string }[],
    enabled: toBoolean(row.enabled),
    secretEnc: String(row.secret_enc),
    previousSecretEnc: optionalString(row.previous_secret_enc),
    previousSecretUntil: optionalNumber(row.previous_secret_until),
    failingSince: optionalNumber(row.failing_since),
    circuitFailures: toNumber(row.circuit_failures),
    circuitOpenUntil: optionalNumber(row.circuit_open_until),
  };
}

export type AttemptOutcome = {
  startedAt: number;
  durationMs: number;
  status: number | null;
  body: string | null;
  error: AttemptError | null;
  /** The destination could not be reached (the circuit counts it): its verdict's word (destinations/destination.ts). */
  outage: boolean;
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

/** What recording an attempt did: whether this process still held it, and what became of the circuit. */
export type Recorded = { written: boolean; circuit?: { change: 'opened' | 'closed'; state: CircuitState } };

/**
 * Writes attempts and their consequences, several in one transaction (one commit, one fsync on
 * SQLite, for attempts that ended together), each only if this process still holds the delivery's
 * lease: an instance whose lease ran out must not overwrite the one that took over. Records are
 * taken in configuration order, so two instances lock configuration rows in the same order and
 * never deadlock on PostgreSQL or Oracle. Answers, per record, what was written.
 */
export async function recordAttempts(
  db: Knex,
  owner: string,
  records: readonly AttemptRecord[],
  circuit: CircuitSettings,
): Promise<Recorded[]> {
  const order = records.map((_, index) => index).sort((a, b) => records[a]!.context.config.id.localeCompare(records[b]!.context.config.id));
  return db.transaction(async (trx) => {
    const results: Recorded[] = new Array<Recorded>(records.length);
    for (const index of order) results[index] = await recordOne(trx, owner, records[index]!, circuit);
    return results;
  });
}

async function recordOne(
  trx: Knex.Transaction,
  owner: string,
  { context, outcome, decision }: AttemptRecord,
  settings: CircuitSettings,
): Promise<Recorded> {
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
  if (updated !== 1) return { written: false };
  await trx('webhook_attempts').insert({
    id: newId('att', outcome.startedAt),
    delivery_id: context.delivery.id,
    config_id: context.config.id,
    attempt_no: attemptNo,
    started_at: outcome.startedAt,
    duration_ms: outcome.durationMs,
    status: outcome.status,
    body_excerpt: outcome.body,
    error: outcome.error,
    request_headers_json: JSON.stringify(outcome.requestHeaders),
  });
  const configUpdate: Record<string, unknown> = {};
  let circuit: Recorded['circuit'];
  // An answer from a receiver whose circuit was clean when the attempt was claimed leaves it clean:
  // no statement (the healthy path). Otherwise the circuit as it is now (other attempts to this
  // configuration ended meanwhile), locked until commit. An outage that another attempt recorded
  // between this one's claim and its answer is then not reset by it: with attempts in flight
  // together, "consecutive" has no sharper meaning.
  const { outage } = outcome;
  const seenClean = context.config.circuitFailures === 0 && context.config.circuitOpenUntil === null;
  const [row] =
    outage || !seenClean
      ? ((await lockForUpdate(
          trx,
          trx('webhook_configs').where({ id: context.config.id }).select('circuit_failures', 'circuit_open_until', 'circuit_opened_at'),
        )) as DbRow[])
      : [];
  if (row) {
    const before = circuitFromRow(row);
    const after = afterAttempt(before, outage, outcome.startedAt + outcome.durationMs, settings);
    if (after.failures !== before.failures || after.openUntil !== before.openUntil) {
      Object.assign(configUpdate, {
        circuit_failures: after.failures,
        circuit_open_until: after.openUntil,
        circuit_opened_at: after.openedAt,
      });
      if (after.openUntil !== null && after.openUntil !== before.openUntil) circuit = { change: 'opened', state: after };
      else if (after.openUntil === null && before.openUntil !== null) circuit = { change: 'closed', state: after };
    }
  }
  if (decision.failingSince !== context.config.failingSince) configUpdate.failing_since = decision.failingSince;
  if (Object.keys(configUpdate).length > 0) await trx('webhook_configs').where({ id: context.config.id }).update(configUpdate);
  // Only a configuration still enabled is disabled: a reason given by staff is not overwritten.
  if (decision.disable) {
    await trx('webhook_configs')
      .where({ id: context.config.id, enabled: true })
      .update({ enabled: false, disabled_reason: decision.disable, disabled_at: outcome.startedAt });
  }
  return { written: true, circuit };
}

/** A delivery claimed for a configuration that is disabled now: skipped, to be recovered later. */
export async function skipDelivery(db: Knex, owner: string, deliveryId: string): Promise<void> {
  await db('webhook_deliveries')
    .where({ id: deliveryId, lease_owner: owner })
    .update({ status: 'ignorada', next_attempt_at: null, lease_owner: null, lease_until: null });
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
  });
  return updated === 1;
}

/** Failed and skipped deliveries of a configuration created since `since`, queued again; how many. */
export async function recoverDeliveries(db: Knex, configId: string, since: number, now: number): Promise<number> {
  return notInFlight(db('webhook_deliveries').where({ config_id: configId }), now)
    .whereIn('status', ['falhou', 'ignorada'])
    .andWhere('created_at', '>=', since)
    .update({ status: 'pendente', next_attempt_at: now, lease_owner: null, lease_until: null });
}

function notInFlight(query: Knex.QueryBuilder, now: number): Knex.QueryBuilder {
  return query.andWhere((lease) => void lease.whereNull('lease_until').orWhere('lease_until', '<', now));
}

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
    })),
  };
}

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

/** A configuration's deliveries and their attempts, deleted with it (the events stay: other configurations may share them). */
export async function deleteDeliveriesOf(trx: Knex.Transaction, configId: string): Promise<void> {
  const deliveries = trx('webhook_deliveries').where({ config_id: configId }).select('id');
  await trx('webhook_attempts').whereIn('delivery_id', deliveries).delete();
  await trx('webhook_deliveries').where({ config_id: configId }).delete();
}
