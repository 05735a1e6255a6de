import 'server-only';
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { getDb } from '@/lib/db';
import { lockForUpdate, toNumber } from '@/lib/db/dialect';
import { afterFailure, isLocked, THROTTLE_RULES, type ThrottleRow, type ThrottleRule } from './throttle-policy';

/**
 * Sign-in attempt counters in the `login_throttle` table, so every instance sharing the database
 * sees the same locks. Keys are hashes: the table holds no e-mail addresses or client addresses.
 */
type Counter = { key: string; rule: ThrottleRule };

function hashKey(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\n')).digest('hex')}`;
}

function countersFor(email: string, address: string): Counter[] {
  const normalized = email.trim().toLowerCase();
  return [
    { key: hashKey('ea', normalized, address), rule: THROTTLE_RULES.emailAndAddress },
    { key: hashKey('e', normalized), rule: THROTTLE_RULES.emailOnly },
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

export async function signInLocked(email: string, address: string, now = Date.now()): Promise<boolean> {
  const db = await getDb();
  const keys = countersFor(email, address).map((counter) => counter.key);
  const rows: Record<string, unknown>[] = await db('login_throttle').whereIn('throttle_key', keys);
  return rows.some((row) => isLocked(fromRow(row), now));
}

export async function recordSignInFailure(email: string, address: string, now = Date.now()): Promise<void> {
  const db = await getDb();
  for (const counter of countersFor(email, address)) await bump(db, counter, now);
}

export async function clearSignInFailures(email: string, address: string): Promise<void> {
  const db = await getDb();
  await db('login_throttle').whereIn('throttle_key', countersFor(email, address).map((counter) => counter.key)).delete();
}

async function bump(db: Knex, counter: Counter, now: number): Promise<void> {
  await db.transaction(async (trx) => {
    const current = fromRow(await lockForUpdate(db, trx('login_throttle').where({ throttle_key: counter.key }).first()));
    const next = afterFailure(current, now, counter.rule);
    const values = { failures: next.failures, window_start: next.windowStart, locked_until: next.lockedUntil };
    if (current) await trx('login_throttle').where({ throttle_key: counter.key }).update(values);
    else await trx('login_throttle').insert({ throttle_key: counter.key, ...values });
  }).catch((error: unknown) => {
    // Two first failures at once both try to insert; the loser's failure is the only one lost.
    if (!isUniqueViolation(error)) throw error;
  });
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'ORA-00001' || /unique|ORA-00001/i.test(String((error as Error)?.message));
}
