import 'server-only';
import type { Knex } from 'knex';
import { dialectOf, lockForUpdate, toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import { fastWriteTransaction } from '@/lib/db/direct-transaction';
import { precompiled, precompiledInsert, precompiledPerCount, type Executor } from '@/lib/db/precompiled';
import { circuitFromRow } from './receivers';
import { PAYLOAD_CONTROL_COLUMNS, payloadControlFromRow } from '@/lib/webhooks/payload-control/store';
import { afterAttempt, type CircuitSettings } from '../circuit';
import { newId } from '../ids';
import { publishExhausted } from './operational';
import {
  deliveryFromRow,
  eventFromRow,
  optionalNumber,
  optionalString,
  type AttemptContext,
  type AttemptRecord,
  type Recorded,
} from './rows';

/** What a claimed attempt needs (its context) and what it leaves (its outcome, the circuit, a skip). */

/**
 * The claimed deliveries with their events and configurations, in one statement whatever their
 * number (a round trip each, per attempt, showed on PostgreSQL). A delivery whose configuration
 * was deleted meanwhile is left out.
 */
export async function loadAttemptContexts(db: Knex, deliveryIds: readonly string[]): Promise<AttemptContext[]> {
  if (deliveryIds.length === 0) return [];
  const rows = await contextRows(deliveryIds.length).rows(db, ...deliveryIds);
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
  'broker_credentials_enc',
  'previous_secret_enc',
  'previous_secret_until',
  'failing_since',
  'circuit_failures',
  'circuit_open_until',
  'rate_limit_per_second',
  ...PAYLOAD_CONTROL_COLUMNS,
] as const;

/** Read at every claim: precompiled (lib/db/precompiled.ts), one statement per count of deliveries. */
const contextRows = precompiledPerCount(
  (count) => count,
  (_count, db, ...ids) =>
    db('webhook_deliveries as d')
      .join('webhook_events as e', 'e.id', 'd.event_id')
      .join('webhook_configs as c', 'c.id', 'd.config_id')
      .whereIn('d.id', ids)
      .select(
        'd.*',
        ...CONTEXT_EVENT_COLUMNS.map((column) => `e.${column} as e_${column}`),
        ...CONTEXT_CONFIG_COLUMNS.map((column) => `c.${column} as c_${column}`),
      ),
);

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
    brokerCredentialsEnc: optionalString(row.broker_credentials_enc),
    previousSecretEnc: optionalString(row.previous_secret_enc),
    previousSecretUntil: optionalNumber(row.previous_secret_until),
    failingSince: optionalNumber(row.failing_since),
    circuitFailures: toNumber(row.circuit_failures),
    circuitOpenUntil: optionalNumber(row.circuit_open_until),
    ratePerSecond: optionalNumber(row.rate_limit_per_second),
    payload: payloadControlFromRow(row),
  };
}

/**
 * Writes attempts and their consequences, several in one transaction (one commit, one fsync on
 * SQLite, for attempts that ended together), each only if this process still holds the delivery's
 * lease: an instance whose lease ran out must not overwrite the one that took over. Records are
 * taken in configuration order, so two instances lock configuration rows in the same order and
 * never deadlock on PostgreSQL or Oracle. Answers, per record, what was written.
 *
 * On SQLite, a batch whose records touch nothing but their delivery and its attempt (the healthy
 * path: see touchesOnlyItsDelivery) is written in a direct transaction (lib/db/direct-transaction.ts),
 * without knex's transaction machinery, which cost more CPU than the two statements of each record.
 */
export async function recordAttempts(
  db: Knex,
  owner: string,
  records: readonly AttemptRecord[],
  circuit: CircuitSettings,
): Promise<Recorded[]> {
  const order = records.map((_, index) => index).sort((a, b) => records[a]!.context.config.id.localeCompare(records[b]!.context.config.id));
  if (dialectOf(db) === 'sqlite' && records.every(touchesOnlyItsDelivery)) {
    return fastWriteTransaction(db, async (tx) => {
      const results: Recorded[] = new Array<Recorded>(records.length);
      for (const index of order) results[index] = (await writeAttempt(tx, owner, records[index]!)) ? { written: true } : { written: false };
      return results;
    });
  }
  return db.transaction(async (trx) => {
    const results: Recorded[] = new Array<Recorded>(records.length);
    for (const index of order) results[index] = await recordOne(trx, owner, records[index]!, circuit);
    return results;
  });
}

/**
 * Whether recording the attempt writes only its delivery's row and its attempt's: an answer that is
 * no outage from a receiver whose circuit was clean at the claim (recordOne then reads no circuit),
 * no pause asked, the configuration's failing-since unchanged, nothing disabled, and the delivery
 * not given up (no operational event).
 */
function touchesOnlyItsDelivery({ context, outcome, decision }: AttemptRecord): boolean {
  const seenClean = context.config.circuitFailures === 0 && context.config.circuitOpenUntil === null;
  return (
    !outcome.outage &&
    seenClean &&
    outcome.pauseUntil === undefined &&
    decision.failingSince === context.config.failingSince &&
    !decision.disable &&
    decision.status !== 'falhou'
  );
}

/**
 * The attempt's outcome on its delivery (only under this process's lease): its status, schedule and
 * last answer; for an early probe of a half-open circuit, its count of those too (not counted by
 * its retry schedule).
 */
function deliveryOutcome(db: Knex, values: string[], earlyProbes?: string) {
  const [status, attempts, failingSince, nextAttemptAt, lastAttemptAt, lastStatus, lastDurationMs, lastBody, lastError, id, owner] = values;
  return db('webhook_deliveries')
    .where({ id, lease_owner: owner })
    .update({
      status,
      attempts,
      failing_since: failingSince,
      ...(earlyProbes === undefined ? {} : { early_probes: earlyProbes }),
      next_attempt_at: nextAttemptAt,
      lease_owner: null,
      lease_until: null,
      last_attempt_at: lastAttemptAt,
      last_status: lastStatus,
      last_duration_ms: lastDurationMs,
      last_body: lastBody,
      last_error: lastError,
    });
}
const updateDelivery = precompiled<unknown[]>(11, (db, ...values) => deliveryOutcome(db, values));
const updateProbedDelivery = precompiled<unknown[]>(12, (db, earlyProbes, ...values) => deliveryOutcome(db, values, earlyProbes));
const insertAttempt = precompiledInsert('webhook_attempts', [
  'id',
  'delivery_id',
  'config_id',
  'attempt_no',
  'started_at',
  'duration_ms',
  'status',
  'body_excerpt',
  'error',
  'request_headers_json',
  'request_body',
] as const);

/** The delivery's row and its attempt's, precompiled (lib/db/precompiled.ts); false: the lease was lost, nothing written. */
async function writeAttempt(db: Executor, owner: string, { context, outcome, decision }: AttemptRecord): Promise<boolean> {
  const attemptNo = context.delivery.attempts + 1;
  const failed = decision.status === 'pendente';
  const values = [
    decision.status,
    attemptNo,
    // Kept from the first failure of its current run while it stays pending (an ordered head holds the others since then).
    failed ? (context.delivery.failingSince ?? outcome.startedAt) : null,
    decision.nextAttemptAt,
    outcome.startedAt,
    outcome.status,
    outcome.durationMs,
    outcome.body,
    outcome.error,
    context.delivery.id,
    owner,
  ];
  const updated = outcome.earlyProbe
    ? await updateProbedDelivery.run(db, context.delivery.earlyProbes + 1, ...values)
    : await updateDelivery.run(db, ...values);
  if (updated !== 1) return false;
  await insertAttempt.run(db, {
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
    request_body: outcome.requestBody ?? null,
  });
  return true;
}

async function recordOne(trx: Knex.Transaction, owner: string, record: AttemptRecord, settings: CircuitSettings): Promise<Recorded> {
  const { context, outcome, decision } = record;
  const attemptNo = context.delivery.attempts + 1;
  if (!(await writeAttempt(trx, owner, record))) return { written: false };
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
  if (outcome.pauseUntil !== undefined) {
    // The later of two pauses wins: an earlier answer's pause is not cut short.
    await trx('webhook_configs')
      .where({ id: context.config.id })
      .andWhere((query) => void query.whereNull('paused_until').orWhere('paused_until', '<', outcome.pauseUntil!))
      .update({ paused_until: outcome.pauseUntil });
  }
  if (Object.keys(configUpdate).length > 0) await trx('webhook_configs').where({ id: context.config.id }).update(configUpdate);
  // Only a configuration still enabled is disabled: a reason given by staff is not overwritten.
  if (decision.disable) {
    await trx('webhook_configs')
      .where({ id: context.config.id, enabled: true })
      .update({ enabled: false, disabled_reason: decision.disable, disabled_at: outcome.startedAt });
  }
  // No attempt follows: the operator hears of it, with this outcome, under this lease (once).
  const queued = decision.status === 'falhou' ? await publishExhausted(trx, context, outcome, attemptNo) : [];
  if (circuit?.change === 'closed') queued.push(...(await dueBehindClosedCircuit(trx, context, outcome.startedAt + outcome.durationMs)));
  return queued.length > 0 ? { written: true, circuit, queued } : { written: true, circuit };
}

/**
 * The receiver is back (its circuit closed): every delivery waiting behind it for a later retry is
 * due at once (issue 45), not when its backoff says, and the worker is woken for the configuration.
 * Through (config_id, status, next_attempt_at).
 */
async function dueBehindClosedCircuit(trx: Knex.Transaction, { config, event }: AttemptContext, now: number) {
  await trx('webhook_deliveries')
    .where({ config_id: config.id, status: 'pendente' })
    .andWhere('next_attempt_at', '>', now)
    .update({ next_attempt_at: now });
  return [{ configId: config.id, tenant: event.usuarioId }];
}

/** A delivery claimed for a configuration that is disabled now: skipped, to be recovered later. */
export async function skipDelivery(db: Knex, owner: string, deliveryId: string): Promise<void> {
  await db('webhook_deliveries')
    .where({ id: deliveryId, lease_owner: owner })
    .update({ status: 'ignorada', next_attempt_at: null, lease_owner: null, lease_until: null });
}

/** A delivery its transformation cancelled: `filtrada`, as a filtered event's, under this instance's lease. */
export async function cancelDelivery(db: Knex, owner: string, deliveryId: string): Promise<void> {
  await db('webhook_deliveries')
    .where({ id: deliveryId, lease_owner: owner })
    .update({ status: 'filtrada', next_attempt_at: null, lease_owner: null, lease_until: null });
}
