import 'server-only';
import type { Knex } from 'knex';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import type { CircuitState } from '../circuit';

/**
 * The delivery engine's runtime state of each receiver (issue 18, 31), kept in webhook_configs'
 * columns beside the configuration but read and written here only: its circuit, since when every
 * attempt has failed, and until when the receiver asked for a pause. The configuration's store
 * (lib/webhooks/configurations/store) never reads them; it tells the engine of a new receiver or a
 * switch back on through the hooks wired in lib/webhooks/wiring.ts.
 */
export type ReceiverState = {
  /** Since when every attempt has failed (null: the last one succeeded); the disable-after-a-window rule counts from it. */
  failingSince: number | null;
  circuit: CircuitState;
  /** Until when its receiver asked for a pause (a 429 or 503 with Retry-After). */
  pausedUntil: number | null;
};

const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));

export function circuitFromRow(row: DbRow): CircuitState {
  return {
    failures: toNumber(row.circuit_failures ?? 0),
    openUntil: optionalNumber(row.circuit_open_until),
    openedAt: optionalNumber(row.circuit_opened_at),
  };
}

export function receiverStateFromRow(row: DbRow): ReceiverState {
  return { failingSince: optionalNumber(row.failing_since), circuit: circuitFromRow(row), pausedUntil: optionalNumber(row.paused_until) };
}

const RECEIVER_COLUMNS = ['id', 'failing_since', 'circuit_failures', 'circuit_open_until', 'circuit_opened_at', 'paused_until'];

/** The receivers' states of these configurations (at most 1,000: Oracle's IN list), by id; none for an unknown id. */
export async function findReceiverStates(db: Knex | Knex.Transaction, ids: readonly string[]): Promise<Map<string, ReceiverState>> {
  if (ids.length === 0) return new Map();
  const rows: DbRow[] = await db('webhook_configs')
    .whereIn('id', [...ids])
    .select(RECEIVER_COLUMNS);
  return new Map(rows.map((row) => [String(row.id), receiverStateFromRow(row)]));
}

export const NEW_RECEIVER: ReceiverState = {
  failingSince: null,
  circuit: { failures: 0, openUntil: null, openedAt: null },
  pausedUntil: null,
};

export async function findReceiverState(db: Knex | Knex.Transaction, id: string): Promise<ReceiverState> {
  return (await findReceiverStates(db, [id])).get(id) ?? NEW_RECEIVER;
}

/** A closed circuit, and no pause its receiver asked for: deliveries may go at once. */
const CLOSED_CIRCUIT = { circuit_failures: 0, circuit_open_until: null, circuit_opened_at: null, paused_until: null };

/** Deliveries to this configuration may be attempted again at once (its receiver URL changed): circuit closed, pause lifted. */
export async function closeCircuit(trx: Knex.Transaction, id: string) {
  await trx('webhook_configs').where({ id }).update(CLOSED_CIRCUIT);
}

/** Deliveries were switched back on: staff ask for deliveries now, so the circuit closes and the failing streak starts over. */
export async function restartReceiver(trx: Knex.Transaction, id: string) {
  await trx('webhook_configs')
    .where({ id })
    .update({ failing_since: null, ...CLOSED_CIRCUIT });
}

export type ConfigurationStates = { active: number; circuitOpen: number; disabled: number };

/** How many configurations deliver, wait behind an open circuit, or are switched off: for the metrics' gauge. */
export async function countConfigurationStates(db: Knex, now: number): Promise<ConfigurationStates> {
  const count = async (query: Knex.QueryBuilder) => toNumber(((await query.count({ n: '*' }).first()) as DbRow | undefined)?.n ?? 0);
  const [all, disabled, circuitOpen] = await Promise.all([
    count(db('webhook_configs')),
    count(db('webhook_configs').where('enabled', false)),
    count(db('webhook_configs').where('enabled', true).andWhere('circuit_open_until', '>', now)),
  ]);
  return { active: all - disabled - circuitOpen, circuitOpen, disabled };
}

/** An ongoing delivery incident: switched off by the worker (not by staff), or its circuit open since `since`. */
export type Incident = { configId: string; kind: 'desativada' | 'circuito-aberto'; since: number };

/**
 * Every configuration in an incident staff must hear of (issue 20 §4): switched off automatically
 * (a 410, or failing too long), or with a circuit opened at least `circuitOpenForMs` ago and not
 * closed since (half-open included: the probe has not succeeded yet).
 */
export async function currentIncidents(db: Knex, now: number, circuitOpenForMs: number): Promise<Incident[]> {
  const [disabled, open] = await Promise.all([
    db('webhook_configs')
      .where('enabled', false)
      .whereNot('disabled_reason', 'manual')
      .whereNotNull('disabled_at')
      .select('id', 'disabled_at'),
    db('webhook_configs')
      .where('enabled', true)
      .whereNotNull('circuit_open_until')
      .andWhere('circuit_opened_at', '<=', now - circuitOpenForMs)
      .select('id', 'circuit_opened_at'),
  ]);
  return [
    ...(disabled as DbRow[]).map((row) => ({ configId: String(row.id), kind: 'desativada' as const, since: toNumber(row.disabled_at) })),
    ...(open as DbRow[]).map((row) => ({
      configId: String(row.id),
      kind: 'circuito-aberto' as const,
      since: toNumber(row.circuit_opened_at),
    })),
  ];
}
