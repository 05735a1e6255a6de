import 'server-only';
import type { Knex } from 'knex';
import { type DbRow } from '@/lib/db/dialect';
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
 * oldest pending delivery, due or not (issue 45): the circuit probes on its own cadence.
 */
export async function pickDue(
  trx: Knex.Transaction,
  now: number,
  shares: readonly [string, number][],
  controls: ReadonlyMap<string, Controls>,
  holdMs: number | undefined,
) {
  const halfOpen = (configId: string) => phaseOf({ openUntil: controls.get(configId)?.openUntil ?? null }, now) === 'half-open';
  const ordered = shares.filter(([configId]) => controls.get(configId)?.ordered);
  const unordered = shares.filter(([configId]) => !controls.get(configId)?.ordered);
  const heads = await dueHeads(
    trx,
    now,
    ordered.map(([configId]) => configId),
    { holdMs, halfOpen },
  );
  const probes = await oldestPending(
    trx,
    now,
    unordered.filter(([configId]) => halfOpen(configId)).map(([configId]) => configId),
  );
  const probed = new Set(probes.map((row) => row.configId));
  const closed = unordered.filter(([configId]) => !probed.has(configId));
  return {
    picked: [...(await oldestDue(trx, now, closed)), ...probes, ...heads.picked],
    headsDueAt: heads.dueAt,
    queued: heads.queued,
  };
}

/** Each half-open configuration's probe: its oldest pending delivery that no live instance holds, due or not. */
async function oldestPending(trx: Knex.Transaction, now: number, configIds: readonly string[]) {
  const picked: { id: string; configId: string }[] = [];
  for (const configId of configIds) {
    const [row] = await notInFlight(trx('webhook_deliveries').where({ config_id: configId, status: 'pendente' }), now)
      .orderBy('next_attempt_at')
      .limit(1)
      .select<DbRow[]>('id');
    if (row) picked.push({ id: String(row.id), configId });
  }
  return picked;
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
    if (!first) continue;
    const rows = (await (rest.length > 0 ? first.unionAll(rest) : first)) as DbRow[];
    picked.push(...rows.map((row) => ({ id: String(row.id), configId: String(row.config_id) })));
  }
  return picked;
}

/** The most heads of one configuration given up in one claim: the rest wait for the next. */
const GIVE_UPS_PER_CLAIM = 10;

/**
 * The head of each ordered configuration's queue (config_id, status, created_at), when it may go
 * now (or probes a half-open circuit); and the earliest moment a head waiting for its retry comes
 * due (nothing behind it may go first). A head that has been failing for `holdMs` is given up
 * (issue 45): `falhou`, with its `entrega.esgotada`, and the next one is the head.
 */
async function dueHeads(
  trx: Knex.Transaction,
  now: number,
  configIds: readonly string[],
  { holdMs, halfOpen }: { holdMs: number | undefined; halfOpen: (configId: string) => boolean },
) {
  const picked: { id: string; configId: string }[] = [];
  const waiting: number[] = [];
  const queued: Candidate[] = [];
  for (const configId of configIds) {
    for (let givenUp = 0; givenUp <= GIVE_UPS_PER_CLAIM; givenUp++) {
      const rows = await headOfQueue(trx, configId).select<DbRow[]>('id', 'next_attempt_at', 'lease_until', 'failing_since');
      const head = rows[0];
      if (!head) break;
      const due = optionalNumber(head.next_attempt_at);
      const lease = optionalNumber(head.lease_until);
      const free = lease === null || lease < now;
      const failingSince = optionalNumber(head.failing_since);
      const releaseAt = holdMs !== undefined && failingSince !== null ? failingSince + holdMs : null;
      if (free && releaseAt !== null && releaseAt <= now && givenUp < GIVE_UPS_PER_CLAIM) {
        const given = await giveUpHead(trx, String(head.id), now);
        if (given) {
          queued.push(...given);
          continue;
        }
      }
      if (free && due !== null && (due <= now || halfOpen(configId))) picked.push({ id: String(head.id), configId });
      else if (due !== null && due > now) waiting.push(releaseAt === null ? due : Math.min(due, releaseAt));
      break;
    }
  }
  return { picked, dueAt: waiting.length > 0 ? Math.min(...waiting) : null, queued };
}

/** Pending deliveries whose time has come and that no live instance holds. */
export function dueDeliveries(trx: Knex | Knex.Transaction, now: number) {
  return trx('webhook_deliveries')
    .where('status', 'pendente')
    .andWhere('next_attempt_at', '<=', now)
    .andWhere((query) => void query.whereNull('lease_until').orWhere('lease_until', '<', now));
}

/**
 * Gives up an ordered configuration's head that has held the rest for WEBHOOK_ORDERED_HOLD_MINUTES
 * (issue 45), in the claim's transaction: `falhou`, with its `entrega.esgotada` (its last answer),
 * unless an instance holds it now. Answers the configurations that got the event's delivery, or
 * undefined when it was not given up.
 */
async function giveUpHead(trx: Knex.Transaction, deliveryId: string, now: number): Promise<Candidate[] | undefined> {
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
