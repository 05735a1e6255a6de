import 'server-only';
import type { Knex } from 'knex';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { attemptsByHour, HOUR_MS, type HourOfAttempts } from './attempt-hours';
import { rolledUntil } from './rollups';
import { cachedRolledUpHours } from './rolled-hours-cache';

/** Backlogs and hour-by-hour attempt counts: the metrics, the delivery health and the triage. */

/** A configuration's deliveries due now, as a subquery correlated on `configIdColumn` (the triage's ranking, repository.ts). */
export function dueDeliveriesOf(db: Knex, configIdColumn: string, now: number): Knex.QueryBuilder {
  return db('webhook_deliveries as d')
    .whereRaw('?? = ??', ['d.config_id', configIdColumn])
    .andWhere('d.status', 'pendente')
    .andWhere('d.next_attempt_at', '<=', now);
}

/** `waiting`: pending deliveries whose next attempt is later (a retry's wait); the health card's, not the metrics'. */
export type Backlog = { due: number; oldestDueAt: number | null; waiting?: number };

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

/**
 * The backlog of each of these configurations (at most 1,000: Oracle's IN list), with its deliveries
 * waiting for a later retry; one with no pending delivery is left out.
 */
export async function backlogByConfig(db: Knex, configIds: readonly string[], now: number): Promise<Map<string, Backlog>> {
  if (configIds.length === 0) return new Map();
  const rows: DbRow[] = await db('webhook_deliveries')
    .select('config_id')
    .select(db.raw('sum(case when ?? <= ? then 1 else 0 end) as ??', ['next_attempt_at', now, 'due']))
    .select(db.raw('sum(case when ?? > ? then 1 else 0 end) as ??', ['next_attempt_at', now, 'waiting']))
    .select(db.raw('min(case when ?? <= ? then ?? end) as ??', ['next_attempt_at', now, 'next_attempt_at', 'oldest']))
    .where('status', 'pendente')
    .whereIn('config_id', configIds)
    .groupBy('config_id');
  return new Map(rows.map((row) => [String(row.config_id), { ...backlogOf(row), waiting: toNumber(row.waiting ?? 0) }]));
}

export { HOUR_MS, type HourOfAttempts } from './attempt-hours';

/**
 * Each configuration's attempts since `since`, hour by hour: how many got a 2xx, how many failed,
 * and their summed duration (the console's delivery health, the staff triage). Whole hours already
 * rolled up (rollups.ts) come from webhook_attempt_hours, a row per configuration and hour; only
 * the hours after them (and a partial first hour, when `since` is not on the hour) are counted from
 * the attempts themselves, so the cost follows the window's hours, not the delivery rate; and the
 * rolled-up hours are kept in memory once read (rolled-hours-cache.ts), so it follows neither. At most
 * 1,000 configurations (Oracle's IN list).
 */
export async function hourlyAttempts(db: Knex, configIds: readonly string[], since: number): Promise<HourOfAttempts[]> {
  if (configIds.length === 0) return [];
  const rolled = await rolledUntil(db);
  const firstWhole = Math.ceil(since / HOUR_MS);
  if (rolled === null || rolled <= firstWhole) return attemptsByHour(db, { from: since }, configIds);
  const [head, middle, tail] = await Promise.all([
    since < firstWhole * HOUR_MS ? attemptsByHour(db, { from: since, to: firstWhole * HOUR_MS }, configIds) : [],
    cachedRolledUpHours(db, configIds, firstWhole, rolled),
    attemptsByHour(db, { from: rolled * HOUR_MS }, configIds),
  ]);
  return [...head, ...middle, ...tail];
}

/** How many of a configuration's deliveries created since `since` are `filtrada`: its health's figure. */
export async function countFiltered(db: Knex, configId: string, since: number): Promise<number> {
  const rows: DbRow[] = await db('webhook_deliveries')
    .where({ config_id: configId, status: 'filtrada' })
    .andWhere('created_at', '>=', since)
    .count({ n: '*' });
  return toNumber(rows[0]?.n ?? 0);
}
