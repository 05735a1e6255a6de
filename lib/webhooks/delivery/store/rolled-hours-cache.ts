import 'server-only';
import type { Knex } from 'knex';
import type { HourOfAttempts } from './attempt-hours';
import { rolledUpHours } from './rollups';

/**
 * The rolled-up hours the health and triage figures read, kept in memory per configuration (issue 45
 * §6). A rolled-up hour never changes (rollups.ts rolls an hour up once, after every attempt of it
 * is on record), so a copy stays true on every instance; only the hours the mark has passed since a
 * configuration was last read come from the database. Without it, a figure's cost grew with the
 * history's density: with a million deliveries every hour of the 7-day window has a row, and the
 * health and triage p95 rose to 1.6-1.8× their figure at 10k deliveries.
 */

/** The longest window a figure reads (the 7-day health view): older hours are not kept. */
const LONGEST_WINDOW_HOURS = 7 * 24;
/** Configurations kept, least recently read dropped first: about 13 MB at 168 full hours each. */
const MAX_CONFIGURATIONS = 1000;

/** A configuration's rolled-up hours in [from, to), those with attempts. */
type Span = { from: number; to: number; hours: HourOfAttempts[] };

const caches = new WeakMap<Knex, Map<string, Span>>();

/** rolledUpHours, answered from memory where it can: these configurations' rolled-up hours in [fromHour, toHour). */
export async function cachedRolledUpHours(
  db: Knex,
  configIds: readonly string[],
  fromHour: number,
  toHour: number,
): Promise<HourOfAttempts[]> {
  const cache = caches.get(db) ?? new Map<string, Span>();
  caches.set(db, cache);
  // Each configuration's span: whole, to extend (the mark has moved on since), or to read.
  const extend = new Map<string, Span>();
  const unread: string[] = [];
  for (const id of configIds) {
    const span = cache.get(id);
    if (span === undefined || span.from > fromHour) unread.push(id);
    else if (span.to < toHour) extend.set(id, span);
    else remember(cache, id, span);
  }
  const extendFrom = Math.min(...[...extend.values()].map((span) => span.to));
  const [added, read] = await Promise.all([
    extend.size > 0 ? rolledUpHours(db, [...extend.keys()], extendFrom, toHour).then(byConfiguration) : new Map<string, HourOfAttempts[]>(),
    unread.length > 0 ? rolledUpHours(db, unread, fromHour, toHour).then(byConfiguration) : new Map<string, HourOfAttempts[]>(),
  ]);
  for (const [id, span] of extend) {
    const after = (added.get(id) ?? []).filter((hour) => hour.hour >= span.to);
    remember(cache, id, { from: span.from, to: toHour, hours: [...span.hours, ...after] });
  }
  for (const id of unread) remember(cache, id, { from: fromHour, to: toHour, hours: read.get(id) ?? [] });
  return configIds.flatMap((id) => (cache.get(id)?.hours ?? []).filter((hour) => hour.hour >= fromHour && hour.hour < toHour));
}

function byConfiguration(hours: HourOfAttempts[]): Map<string, HourOfAttempts[]> {
  const grouped = new Map<string, HourOfAttempts[]>();
  for (const hour of hours) {
    const list = grouped.get(hour.configId);
    if (list) list.push(hour);
    else grouped.set(hour.configId, [hour]);
  }
  return grouped;
}

/** Keeps a span, its hours older than the longest window dropped, as the most recently read. */
function remember(cache: Map<string, Span>, id: string, span: Span): void {
  const oldest = Math.max(span.from, span.to - LONGEST_WINDOW_HOURS);
  cache.delete(id);
  cache.set(id, { from: oldest, to: span.to, hours: span.hours.filter((hour) => hour.hour >= oldest) });
  if (cache.size > MAX_CONFIGURATIONS) cache.delete(cache.keys().next().value!);
}
