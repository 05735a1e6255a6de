import 'server-only';
import type { Knex } from 'knex';
import { hourOf, toNumber, type DbRow } from '@/lib/db/dialect';

/** An hour in milliseconds: the health's and the roll-ups' unit (an hour's number is its start / HOUR_MS). */
export const HOUR_MS = 3_600_000;

export type HourOfAttempts = { configId: string; hour: number; delivered: number; failed: number; durationMs: number };

/**
 * Attempts started in [from, to) (to: open-ended when absent), counted per configuration and hour:
 * how many got a 2xx (no error), how many failed, their summed duration. The one definition the
 * roll-up (rollups.ts) and the not-yet-rolled tail (statistics.ts) share, so both count alike.
 * Read through webhook_attempts' (config_id, started_at, …) covering index, one range per
 * configuration (at most 1,000: Oracle's IN list).
 */
export async function attemptsByHour(
  db: Knex,
  range: { from: number; to?: number },
  configIds: readonly string[],
): Promise<HourOfAttempts[]> {
  const hour = hourOf(db, 'started_at');
  const query = db('webhook_attempts')
    .select('config_id', db.raw('? as ??', [hour, 'hora']))
    .select(db.raw('sum(case when ?? is null then 1 else 0 end) as ??', ['error', 'entregues']))
    .count({ n: '*' })
    .sum({ duracao: 'duration_ms' })
    .whereIn('config_id', configIds)
    .andWhere('started_at', '>=', range.from)
    .groupBy('config_id', hour);
  if (range.to !== undefined) void query.andWhere('started_at', '<', range.to);
  const rows: DbRow[] = await query;
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
