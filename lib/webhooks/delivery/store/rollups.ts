import 'server-only';
import type { Knex } from 'knex';
import { lockForUpdate, toNumber, type DbRow } from '@/lib/db/dialect';
import { attemptsByHour, HOUR_MS, type HourOfAttempts } from './attempt-hours';

/**
 * Hourly roll-ups of the delivery log (issue 45 §6): the attempts of each whole hour, counted once
 * into webhook_attempt_hours after the hour has ended, so the health and triage figures
 * (statistics.ts, hourlyAttempts) read a row per configuration and hour, plus the raw attempts of
 * the hours not yet rolled up. Recording an attempt pays nothing for it: a periodic pass does the
 * counting (lib/retention.ts).
 */

const MARK = 'webhook_attempt_hours';
/**
 * An hour is rolled up only once it ended this long ago: an attempt's row is written when its answer
 * comes (WEBHOOK_TIMEOUT_MS at most 120 s, then its outcome's commit), with the time it started, so
 * no attempt of an hour is recorded after this margin and a rolled-up hour never changes.
 */
export const ROLLUP_MARGIN_MS = 15 * 60_000;
/**
 * Hours rolled up per transaction: a first pass over a long history goes in short steps (on SQLite
 * each holds the serving thread while it counts; lib/retention.ts pauses between them).
 */
const HOURS_PER_STEP = 6;
/** Oracle's IN list. */
const IN_LIST_MAX = 1000;
/** Rows per insert: Oracle's bind limit and a short statement everywhere. */
const INSERT_CHUNK = 200;

/**
 * How long an instance answers the roll-up mark from memory. The mark moves once an hour, and a
 * figure read with an older mark is still exact (it counts more hours from the raw attempts, which
 * outlive the mark by the retention period), so a health read need not wait for it: one round trip
 * fewer before its tail of raw attempts (issue 45 §6). This instance's own roll-ups move it at once.
 */
const MARK_KEPT_MS = 60_000;
const knownMarks = new WeakMap<Knex, { hour: number; readAt: number }>();

/** Keeps the mark read or written at `readAt`, and answers the one kept. */
function rememberMark(db: Knex, hour: number, readAt: number): number {
  // Marks only move forward: a read that raced a roll-up never takes one back.
  const kept = Math.max(hour, knownMarks.get(db)?.hour ?? hour);
  knownMarks.set(db, { hour: kept, readAt });
  return kept;
}

/** The first hour not rolled up (hours since the epoch), or null before the first pass. */
export async function rolledUntil(db: Knex, now = Date.now()): Promise<number | null> {
  const known = knownMarks.get(db);
  if (known && now - known.readAt < MARK_KEPT_MS) return known.hour;
  const row: DbRow | undefined = await db('webhook_rollup_marks').where({ name: MARK }).first('rolled_until');
  const value = row?.rolled_until;
  return value === null || value === undefined ? null : rememberMark(db, toNumber(value), now);
}

/**
 * Rolls up the next hours that ended at least ROLLUP_MARGIN_MS before `now`, up to HOURS_PER_STEP
 * of them, in one transaction that holds the mark row: instances rolling up at once take turns, and
 * the later one finds the hours done. Answers how many hours it rolled up (0: caught up).
 */
export async function rollUpStep(db: Knex, now: number): Promise<number> {
  const target = Math.floor((now - ROLLUP_MARGIN_MS) / HOUR_MS);
  const step = await rollUpHours(db, target);
  if (step.mark !== null) rememberMark(db, step.mark, Date.now());
  return step.hours;
}

async function rollUpHours(db: Knex, target: number): Promise<{ hours: number; mark: number | null }> {
  return db.transaction(async (trx) => {
    const [mark] = (await lockForUpdate(trx, trx('webhook_rollup_marks').where({ name: MARK }).select('rolled_until'))) as DbRow[];
    if (!mark) return { hours: 0, mark: null };
    const from = mark.rolled_until === null || mark.rolled_until === undefined ? await firstHour(trx, target) : toNumber(mark.rolled_until);
    const to = Math.min(target, from + HOURS_PER_STEP);
    if (to <= from) {
      if (mark.rolled_until === null) await trx('webhook_rollup_marks').where({ name: MARK }).update({ rolled_until: from });
      return { hours: 0, mark: from };
    }
    // By configuration, so each one's hours are a range of webhook_attempts' (config_id, started_at, …)
    // index: the step reads the attempts of its hours, not the whole table (which has no index on
    // started_at alone). An attempt's configuration exists: deleting one deletes its attempts.
    const configIds = (await trx('webhook_configs').pluck('id')).map(String);
    for (let c = 0; c < configIds.length; c += IN_LIST_MAX) {
      const hours = await attemptsByHour(trx, { from: from * HOUR_MS, to: to * HOUR_MS }, configIds.slice(c, c + IN_LIST_MAX));
      for (let i = 0; i < hours.length; i += INSERT_CHUNK) {
        await trx('webhook_attempt_hours').insert(hours.slice(i, i + INSERT_CHUNK).map(rowOf));
      }
    }
    await trx('webhook_rollup_marks').where({ name: MARK }).update({ rolled_until: to });
    return { hours: to - from, mark: to };
  });
}

/** Where the first pass starts: the hour of the oldest attempt on record, or `target` with none. */
async function firstHour(trx: Knex.Transaction, target: number): Promise<number> {
  const row: DbRow | undefined = await trx('webhook_attempts').min({ oldest: 'started_at' }).first();
  const oldest = row?.oldest;
  return oldest === null || oldest === undefined ? target : Math.min(target, Math.floor(toNumber(oldest) / HOUR_MS));
}

function rowOf(hour: HourOfAttempts) {
  return { config_id: hour.configId, hour_no: hour.hour, delivered: hour.delivered, failed: hour.failed, duration_ms: hour.durationMs };
}

/** These configurations' rolled-up hours from `fromHour` up to (not including) `toHour`. */
export async function rolledUpHours(db: Knex, configIds: readonly string[], fromHour: number, toHour: number): Promise<HourOfAttempts[]> {
  const rows = await db('webhook_attempt_hours')
    .select<DbRow[]>('config_id', 'hour_no', 'delivered', 'failed', 'duration_ms')
    .whereIn('config_id', configIds)
    .andWhere('hour_no', '>=', fromHour)
    .andWhere('hour_no', '<', toHour);
  return rows.map((row) => ({
    configId: String(row.config_id),
    hour: toNumber(row.hour_no),
    delivered: toNumber(row.delivered),
    failed: toNumber(row.failed),
    durationMs: toNumber(row.duration_ms),
  }));
}

/** Retention: the rolled-up hours that ended before `before` (the delivery history's cut-off). */
export async function pruneRollups(db: Knex, before: number): Promise<number> {
  return db('webhook_attempt_hours')
    .where('hour_no', '<', Math.floor(before / HOUR_MS))
    .delete();
}

/** A configuration's rolled-up hours, deleted with it (retention.ts, deleteDeliveriesOf). */
export async function deleteRollupsOf(trx: Knex.Transaction, configId: string): Promise<void> {
  await trx('webhook_attempt_hours').where({ config_id: configId }).delete();
}
