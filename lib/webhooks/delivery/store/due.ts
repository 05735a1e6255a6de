import 'server-only';
import type { Knex } from 'knex';
import { type DbRow } from '@/lib/db/dialect';
import { DirectSqliteTransaction } from '@/lib/db/direct-transaction';
import { precompiled, precompiledPerCount, type Executor } from '@/lib/db/precompiled';
import { phaseOf } from '../circuit';
import { type Candidate } from '../fair-share';
import { type Controls } from './controls';
import { loadAttemptContexts } from './outcomes';
import { publishExhausted } from './operational';
import { headOfQueue, notInFlight } from './queue';
import { optionalNumber, type AttemptOutcome } from './rows';

/** Which due deliveries a claim picks (claims.ts): each configuration's due heads, a half-open one's probe, heads given up. */

/**
 * The deliveries each share goes to: a configuration's `count` oldest due ones; with ordered
 * delivery, its oldest pending one (publication order: created_at, then id), and only when that one
 * is due and not in flight: a later delivery never overtakes it. A half-open circuit's probe is the
 * oldest pending delivery, due or not (issue 45): the circuit probes on its own cadence. `expired`:
 * ordered heads that have held the rest for `holdMs`, for the claim to give up (giveUpHead) once
 * its transaction is over; their configurations get nothing in this claim.
 */
export async function pickDue(
  tx: Executor,
  now: number,
  shares: readonly [string, number][],
  controls: ReadonlyMap<string, Controls>,
  holdMs: number | undefined,
) {
  const halfOpen = (configId: string) => phaseOf({ openUntil: controls.get(configId)?.openUntil ?? null }, now) === 'half-open';
  const ordered = shares.filter(([configId]) => controls.get(configId)?.ordered);
  const unordered = shares.filter(([configId]) => !controls.get(configId)?.ordered);
  const heads = await dueHeads(
    tx,
    now,
    ordered.map(([configId]) => configId),
    { holdMs, halfOpen },
  );
  const probes = await oldestPending(
    tx,
    now,
    unordered.filter(([configId]) => halfOpen(configId)).map(([configId]) => configId),
  );
  const probed = new Set(probes.map((row) => row.configId));
  const closed = unordered.filter(([configId]) => !probed.has(configId));
  return {
    picked: [...(await oldestDue(tx, now, closed)), ...probes, ...heads.picked],
    headsDueAt: heads.dueAt,
    expired: heads.expired,
  };
}

type Picked = { id: string; configId: string };

const oldestPendingRow = precompiled<[string, number]>(2, (db, configId, now) =>
  notInFlight(db('webhook_deliveries').where({ config_id: configId, status: 'pendente' }), now)
    .orderBy('next_attempt_at')
    .limit(1)
    .select('id'),
);

/** Each half-open configuration's probe: its oldest pending delivery that no live instance holds, due or not. */
async function oldestPending(tx: Executor, now: number, configIds: readonly string[]) {
  const picked: Picked[] = [];
  for (const configId of configIds) {
    const row = await oldestPendingRow.first(tx, configId, now);
    if (row) picked.push({ id: String(row.id), configId });
  }
  return picked;
}

/**
 * One configuration's `count` oldest due deliveries (an index range scan on config_id, status,
 * next_attempt_at), precompiled per count: a LIMIT is written into SQLite's statement
 * (precompiled.ts), and a share is at most the worker's concurrency.
 */
const oldestDueOfConfig = precompiledPerCount(
  () => 3,
  (count, db, configId, now, leaseNow) =>
    dueDeliveries(db, now, leaseNow).andWhere('config_id', configId).orderBy('next_attempt_at').limit(count).select('id'),
);

/**
 * Each configuration's `count` oldest due deliveries. In the embedded database's direct transaction
 * a statement is a call in this process: one precompiled statement per configuration. On a server
 * database a statement is a round trip: one per 50 configurations (a UNION ALL of the same range
 * scans), built per claim.
 */
async function oldestDue(tx: Executor, now: number, shares: readonly [string, number][]) {
  const picked: Picked[] = [];
  if (tx instanceof DirectSqliteTransaction) {
    for (const [configId, count] of shares) {
      for (const row of await oldestDueOfConfig(count).rows(tx, configId, now, now)) picked.push({ id: String(row.id), configId });
    }
    return picked;
  }
  for (let i = 0; i < shares.length; i += 50) {
    const [first, ...rest] = shares
      .slice(i, i + 50)
      .map(([configId, count], index) =>
        tx
          .select('id', 'config_id')
          .from(
            dueDeliveries(tx, now)
              .andWhere('config_id', configId)
              .orderBy('next_attempt_at')
              .limit(count)
              .select('id', 'config_id')
              .as(`q${index}`),
          ),
      );
    if (!first) continue;
    const rows = (await (rest.length > 0 ? first.unionAll(rest) : first)) as DbRow[];
    picked.push(...rows.map((row) => ({ id: String(row.id), configId: String(row.config_id) })));
  }
  return picked;
}

const headRow = precompiled<[string]>(1, (db, configId) =>
  headOfQueue(db, configId).select('id', 'next_attempt_at', 'lease_until', 'failing_since'),
);

/**
 * The head of each ordered configuration's queue (config_id, status, created_at), when it may go
 * now (or probes a half-open circuit); the earliest moment a head waiting for its retry comes due
 * (nothing behind it may go first); and the heads that have been failing for `holdMs` (issue 45),
 * to be given up.
 */
async function dueHeads(
  tx: Executor,
  now: number,
  configIds: readonly string[],
  { holdMs, halfOpen }: { holdMs: number | undefined; halfOpen: (configId: string) => boolean },
) {
  const picked: Picked[] = [];
  const expired: Picked[] = [];
  const waiting: number[] = [];
  for (const configId of configIds) {
    const head = await headRow.first(tx, configId);
    if (!head) continue;
    const due = optionalNumber(head.next_attempt_at);
    const lease = optionalNumber(head.lease_until);
    const free = lease === null || lease < now;
    const failingSince = optionalNumber(head.failing_since);
    const releaseAt = holdMs !== undefined && failingSince !== null ? failingSince + holdMs : null;
    if (free && releaseAt !== null && releaseAt <= now) expired.push({ id: String(head.id), configId });
    else if (free && due !== null && (due <= now || halfOpen(configId))) picked.push({ id: String(head.id), configId });
    else if (due !== null && due > now) waiting.push(releaseAt === null ? due : Math.min(due, releaseAt));
  }
  return { picked, dueAt: waiting.length > 0 ? Math.min(...waiting) : null, expired };
}

/**
 * Pending deliveries whose time has come and that no live instance holds. A precompiled query
 * (lib/db/precompiled.ts) passes each of its placeholders once: `leaseNow` is `now` again.
 */
export function dueDeliveries(trx: Knex | Knex.Transaction, now: Knex.Value, leaseNow: Knex.Value = now) {
  return notInFlight(trx('webhook_deliveries').where('status', 'pendente').andWhere('next_attempt_at', '<=', now), leaseNow);
}

/**
 * Gives up an ordered configuration's head that has held the rest for WEBHOOK_ORDERED_HOLD_MINUTES
 * (issue 45), in a transaction of its own after the claim that found it: `falhou`, with its
 * `entrega.esgotada` (its last answer), unless an instance holds it now or it was given up already.
 * Answers the configurations that got the event's delivery, or undefined when it was not given up.
 */
export async function giveUpHead(trx: Knex.Transaction, deliveryId: string, now: number): Promise<Candidate[] | undefined> {
  const updated = await notInFlight(trx('webhook_deliveries').where({ id: deliveryId, status: 'pendente' }), now).update({
    status: 'falhou',
    next_attempt_at: null,
    failing_since: null,
  });
  if (updated !== 1) return undefined;
  const [context] = await loadAttemptContexts(trx, [deliveryId]);
  if (!context) return [];
  const { delivery } = context;
  const outcome: AttemptOutcome = {
    startedAt: now,
    durationMs: 0,
    status: delivery.lastStatus,
    body: null,
    error: delivery.lastError,
    outage: false,
    requestHeaders: {},
  };
  return publishExhausted(trx, context, outcome, delivery.attempts);
}
