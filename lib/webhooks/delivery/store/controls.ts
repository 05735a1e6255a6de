import 'server-only';
import type { Knex } from 'knex';
import { dialectOf, lockForUpdate, toBoolean, type DbRow } from '@/lib/db/dialect';
import { precompiled, precompiledPerCount, type Executor } from '@/lib/db/precompiled';
import { attemptCap } from '../circuit';
import { allowance, sendSlot, type Allowance } from '../pacing';
import { optionalNumber } from './rows';

/**
 * A configuration's delivery controls as a claim applies them (issue 31): its circuit, a pause its
 * receiver asked for, ordered delivery and its rate limit's pacing, read and moved on under the
 * claim's tenant lock.
 */

/** What decides a configuration's room in a claim, read under the claim's tenant locks. */
export type Controls = {
  openUntil: number | null;
  pausedUntil: number | null;
  ordered: boolean;
  perSecond: number | null;
  tat: number | null;
};

/** Read at every claim: precompiled (lib/db/precompiled.ts), one statement per count of configurations. */
const controlRows = precompiledPerCount(
  (count) => count,
  (_count, db, ...ids) =>
    db('webhook_configs')
      .whereIn('id', ids)
      .select('id', 'circuit_open_until', 'paused_until', 'ordered', 'rate_limit_per_second', 'rate_tat'),
);

/** Each configuration's circuit, pause, ordering and pacing; a deleted one is missing. */
export async function controlsOf(trx: Executor, configIds: readonly string[]): Promise<Map<string, Controls>> {
  const controls = new Map<string, Controls>();
  for (let i = 0; i < configIds.length; i += 1000) {
    const chunk = configIds.slice(i, i + 1000);
    const rows: DbRow[] = await controlRows(chunk.length).rows(trx, ...chunk);
    for (const row of rows) {
      controls.set(String(row.id), {
        openUntil: optionalNumber(row.circuit_open_until),
        pausedUntil: optionalNumber(row.paused_until),
        ordered: toBoolean(row.ordered),
        perSecond: optionalNumber(row.rate_limit_per_second),
        tat: optionalNumber(row.rate_tat),
      });
    }
  }
  return controls;
}

/**
 * What a configuration may have in flight now (`cap`), how many more may start now under its rate
 * limit (`pace`), and when one held back may go again.
 */
export type Room = { cap: number; wakeAt: number | null; pace?: Allowance };

/** The most attempts of the configuration in flight after this claim: its cap, and no more new ones than its pacing allows. */
export function capAfterClaim(room: Room | undefined, inFlight: number): number {
  if (!room) return 0;
  return room.pace ? Math.min(room.cap, inFlight + room.pace.allowed) : room.cap;
}

/**
 * Each configuration's room in this claim: the per-endpoint cap, or its circuit's (1 half-open, 0
 * open); 0 while its receiver's pause lasts; 1 with ordered delivery (one attempt at a time, the
 * oldest first); and what its rate limit allows to start now (pacing.ts).
 */
export function roomOf(controls: ReadonlyMap<string, Controls>, now: number, perEndpoint: number): Map<string, Room> {
  const room = new Map<string, Room>();
  for (const [configId, control] of controls) {
    if (control.pausedUntil !== null && control.pausedUntil > now) {
      room.set(configId, { cap: 0, wakeAt: control.pausedUntil });
      continue;
    }
    let cap = attemptCap({ openUntil: control.openUntil }, now, perEndpoint);
    if (control.ordered) cap = Math.min(cap, 1);
    if (control.perSecond === null) {
      room.set(configId, { cap, wakeAt: null });
      continue;
    }
    const pace = allowance({ perSecond: control.perSecond, tat: control.tat }, now);
    room.set(configId, { cap, wakeAt: pace.allowed === 0 ? pace.readyAt : null, pace });
  }
  return room;
}

const movePacing = precompiled<[number, string]>(2, (db, tat, configId) =>
  db('webhook_configs').where({ id: configId }).update({ rate_tat: tat }),
);

/** A rate-limited configuration's pacing moves on by what was claimed for it (under the tenant's lock). */
export async function advancePacing(trx: Executor, picked: readonly { configId: string }[], room: ReadonlyMap<string, Room>) {
  const claimed = new Map<string, number>();
  for (const { configId } of picked) claimed.set(configId, (claimed.get(configId) ?? 0) + 1);
  for (const [configId, count] of claimed) {
    const pace = room.get(configId)?.pace;
    if (pace) await movePacing.run(trx, pace.tatAfter(count), configId);
  }
}

export function earliest(times: readonly (number | null)[]): number | null {
  const known = times.filter((time): time is number => time !== null);
  return known.length > 0 ? Math.min(...known) : null;
}

/**
 * Takes a rate-limited configuration's send slot (pacing.ts) for a request about to leave, if it is
 * due: answers 0 when taken (the request leaves now), or how long to wait before asking again. The
 * clock is read once the configuration's row is locked, so a slot is never one in the past that a
 * wait for the lock made stale, and every instance's requests share the row's order. Its own short
 * transaction, committed without waiting for the WAL flush on PostgreSQL: a slot lost in a crash
 * costs only an earlier send.
 */
export async function takeSendSlot(db: Knex, configId: string, perSecond: number, clock: () => number): Promise<number> {
  return db.transaction(async (trx) => {
    if (dialectOf(trx) === 'postgres') await trx.raw('SET LOCAL synchronous_commit = off');
    const [row] = (await lockForUpdate(trx, trx('webhook_configs').where({ id: configId }).select('rate_sent_tat'))) as DbRow[];
    if (!row) return 0;
    const slot = sendSlot({ perSecond, tat: optionalNumber(row.rate_sent_tat) }, clock());
    if (!slot.goNow) return slot.waitMs;
    await trx('webhook_configs').where({ id: configId }).update({ rate_sent_tat: slot.tat });
    return 0;
  });
}
