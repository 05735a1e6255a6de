import 'server-only';
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { getDb } from '@/lib/data';
import { isUniqueViolation, lockForUpdate, toNumber, type DbRow } from '@/lib/db/dialect';
import { afterFailure, isLocked, THROTTLE_RULES, type ThrottleRow, type ThrottleRule } from './throttle-policy';

/**
 * Attempt counters in the `login_throttle` table, shared by every instance using the database.
 * An attempt is counted BEFORE the secret is checked, in one transaction over all its counters,
 * so parallel attempts cannot all slip through while the first ones are still being verified:
 * at most `maxFailures` attempts per window ever reach scrypt. A success clears the counters.
 * Keys are hashes with a namespace per use: the table holds no e-mail, client id or address.
 */
export type Counter = { key: string; rule: ThrottleRule };

export type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const TABLE = 'login_throttle';

function hashKey(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\n')).digest('hex')}`;
}

/** Console sign-in: e-mail + address (tight) and e-mail alone (looser). */
export function signInCounters(email: string, address: string): Counter[] {
  const normalized = email.trim().toLowerCase();
  return [
    { key: hashKey('ea', normalized, address), rule: THROTTLE_RULES.emailAndAddress },
    { key: hashKey('e', normalized), rule: THROTTLE_RULES.emailOnly },
  ];
}

/** Token endpoint: client_id + address (tight) and client_id alone, whatever the address (looser). */
export function tokenCounters(clientId: string, address: string): Counter[] {
  return [
    { key: hashKey('ca', clientId, address), rule: THROTTLE_RULES.clientAndAddress },
    { key: hashKey('c', clientId), rule: THROTTLE_RULES.clientOnly },
  ];
}

function fromRow(row: Record<string, unknown> | undefined): ThrottleRow | undefined {
  if (!row) return undefined;
  return {
    failures: toNumber(row.failures),
    windowStart: toNumber(row.window_start),
    lockedUntil: row.locked_until === null || row.locked_until === undefined ? null : toNumber(row.locked_until),
  };
}

/** Counts one attempt on every counter, or refuses it (counting nothing) while any is locked. */
export async function countAttempt(counters: readonly Counter[], clock: () => number = Date.now): Promise<AttemptDecision> {
  const db = await getDb();
  // Always the same lock order, so two attempts on overlapping counters cannot deadlock.
  const ordered = [...counters].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let round = 1; ; round++) {
    try {
      return await db.transaction((trx) => countInTransaction(db, trx, ordered, clock));
    } catch (error) {
      // Two first attempts on a key both INSERT; the loser retries and now finds (and locks) the row.
      if (round < 5 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

async function countInTransaction(
  db: Knex,
  trx: Knex.Transaction,
  counters: readonly Counter[],
  clock: () => number,
): Promise<AttemptDecision> {
  const current: (ThrottleRow | undefined)[] = [];
  for (const counter of counters) {
    // rows[0], not .first(): knex wraps .first() with FOR UPDATE in a ROWNUM subquery Oracle refuses.
    const rows = (await lockForUpdate(db, trx(TABLE).where({ throttle_key: counter.key }))) as DbRow[];
    current.push(fromRow(rows[0]));
  }
  // Read once the rows are ours: an attempt that waited for the lock must not count from before
  // the attempt that held it (a Retry-After one second too long, seen under load on PostgreSQL).
  const now = clock();
  const lockedUntil = Math.max(...current.map((row) => (isLocked(row, now) ? (row?.lockedUntil ?? 0) : 0)));
  if (lockedUntil > now) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((lockedUntil - now) / 1000)) };
  for (const [index, counter] of counters.entries()) {
    const next = afterFailure(current[index], now, counter.rule);
    const values = { failures: next.failures, window_start: next.windowStart, locked_until: next.lockedUntil };
    if (current[index]) await trx(TABLE).where({ throttle_key: counter.key }).update(values);
    else await trx(TABLE).insert({ throttle_key: counter.key, ...values });
  }
  return { allowed: true };
}

export async function clearCounters(counters: readonly Counter[]): Promise<void> {
  const db = await getDb();
  await db(TABLE)
    .whereIn(
      'throttle_key',
      counters.map((counter) => counter.key),
    )
    .delete();
}
