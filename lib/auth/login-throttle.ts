import 'server-only';
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { getDb } from '@/lib/db/handle';
import { isUniqueViolation, lockForUpdate, toNumber, type DbRow } from '@/lib/db/dialect';
import { log, redactError } from '@/lib/log';
import { afterFailure, isLocked, LONGEST_WINDOW_MS, THROTTLE_RULES, type ThrottleRow, type ThrottleRule } from './throttle-policy';
import { throttleAddress } from './throttle-address';

/**
 * Attempt counters in the `login_throttle` table, shared by every instance using the database.
 * An attempt is counted BEFORE the secret is checked, in one transaction over all its counters,
 * so parallel attempts cannot all slip through while the first ones are still being verified.
 * On success the identity counter is cleared and the address counter gets its attempt back
 * (throttle-policy.ts). Keys are hashes with a namespace per use: the table holds no e-mail,
 * client id or address. An address counts as its throttle key (throttle-address.ts: an IPv6
 * client by its /64). Rows whose window and lock are over are swept, at most once a minute.
 */
export type Counter = { key: string; rule: ThrottleRule; onSuccess: 'clear' | 'refund' };

export type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const TABLE = 'login_throttle';
const SWEEP_INTERVAL_MS = 60_000;

function hashKey(kind: string, ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\n')).digest('hex')}`;
}

/** Guesses at staff passwords from one address, at sign-in or as the current password: one budget. */
const staffPasswordAddress = (address: string): Counter => ({
  key: hashKey('sa', throttleAddress(address)),
  rule: THROTTLE_RULES.signInAddress,
  onSuccess: 'refund',
});

/** Console sign-in: e-mail + address (tight) and the address alone (looser). */
export function signInCounters(email: string, address: string): Counter[] {
  const normalized = email.trim().toLowerCase();
  return [
    { key: hashKey('ea', normalized, throttleAddress(address)), rule: THROTTLE_RULES.emailAndAddress, onSuccess: 'clear' },
    staffPasswordAddress(address),
  ];
}

/**
 * A password change's current password (`senhaAtual`): the session that guesses (tight), the
 * account whatever the session (looser) and the address, shared with sign-in. Only someone signed
 * in to the account can fail here, so the account's own counter cannot be tripped by strangers; the
 * session's is tighter so that one stolen session cannot keep the owner from changing the
 * password, which is what ends it. `sessionId` is empty for a session from before sessions had one.
 */
export function passwordChangeCounters(userId: string, sessionId: string, address: string): Counter[] {
  return [
    { key: hashKey('ps', userId, sessionId), rule: THROTTLE_RULES.passwordChangeSession, onSuccess: 'clear' },
    { key: hashKey('pa', userId), rule: THROTTLE_RULES.passwordChangeAccount, onSuccess: 'refund' },
    staffPasswordAddress(address),
  ];
}

/** Token endpoint: client_id + address (tight) and the address alone, whatever the client_id (looser). */
export function tokenCounters(clientId: string, address: string): Counter[] {
  const key = throttleAddress(address);
  return [
    { key: hashKey('ca', clientId, key), rule: THROTTLE_RULES.clientAndAddress, onSuccess: 'clear' },
    { key: hashKey('ta', key), rule: THROTTLE_RULES.tokenAddress, onSuccess: 'refund' },
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

/**
 * Locks this process has seen, by key. A flood from a locked address then costs no database
 * transaction per request. Only ever a shortcut for a lock the table holds: another instance's
 * locks are found in the table as before, and entries leave once their time is over.
 */
const knownLocks = new Map<string, number>();
const KNOWN_LOCKS_MAX = 10_000;

function knownLockUntil(counters: readonly Counter[], now: number): number {
  let until = 0;
  for (const counter of counters) {
    const lockedUntil = knownLocks.get(counter.key);
    if (lockedUntil === undefined) continue;
    if (lockedUntil > now) until = Math.max(until, lockedUntil);
    else knownLocks.delete(counter.key);
  }
  return until;
}

function rememberLocks(counters: readonly Counter[], rows: readonly (ThrottleRow | undefined)[], now: number): void {
  if (knownLocks.size >= KNOWN_LOCKS_MAX) knownLocks.clear();
  for (const [index, counter] of counters.entries()) {
    const lockedUntil = rows[index]?.lockedUntil;
    if (lockedUntil != null && lockedUntil > now) knownLocks.set(counter.key, lockedUntil);
  }
}

function refusal(lockedUntil: number, now: number): AttemptDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((lockedUntil - now) / 1000)) };
}

/** Counts one attempt on every counter, or refuses it (counting nothing) while any is locked. */
export async function countAttempt(counters: readonly Counter[], clock: () => number = Date.now): Promise<AttemptDecision> {
  const known = knownLockUntil(counters, clock());
  if (known > 0) return refusal(known, clock());
  const db = await getDb();
  // The wall clock, not `clock`: a test's imagined time must not sweep other tests' counters.
  sweepNowAndThen(db, Date.now());
  // Always the same lock order, so two attempts on overlapping counters cannot deadlock.
  const ordered = [...counters].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (let round = 1; ; round++) {
    try {
      const { decision, rows, now } = await db.transaction((trx) => countInTransaction(db, trx, ordered, clock));
      rememberLocks(ordered, rows, now); // after the commit: only locks the table really holds
      return decision;
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
): Promise<{ decision: AttemptDecision; rows: (ThrottleRow | undefined)[]; now: number }> {
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
  if (lockedUntil > now) return { decision: refusal(lockedUntil, now), rows: current, now };
  const updated: ThrottleRow[] = [];
  for (const [index, counter] of counters.entries()) {
    const next = afterFailure(current[index], now, counter.rule);
    updated.push(next);
    const values = { failures: next.failures, window_start: next.windowStart, locked_until: next.lockedUntil };
    if (current[index]) await trx(TABLE).where({ throttle_key: counter.key }).update(values);
    else await trx(TABLE).insert({ throttle_key: counter.key, ...values });
  }
  return { decision: { allowed: true }, rows: updated, now };
}

/** After a correct secret: the identity's failures are forgiven, the address's attempt taken back. */
export async function settleSuccess(counters: readonly Counter[]): Promise<void> {
  const db = await getDb();
  const keys = (kind: Counter['onSuccess']) => counters.filter((counter) => counter.onSuccess === kind).map((counter) => counter.key);
  for (const key of keys('clear')) knownLocks.delete(key);
  await db(TABLE).whereIn('throttle_key', keys('clear')).delete();
  await db(TABLE).whereIn('throttle_key', keys('refund')).where('failures', '>', 0).decrement('failures', 1);
}

let lastSweep = 0;

/** Deletes counters whose window and lock are both over; off the request's path, errors only logged. */
function sweepNowAndThen(db: Knex, now: number): void {
  if (now - lastSweep < SWEEP_INTERVAL_MS) return;
  lastSweep = now;
  void sweepExpiredCounters(db, now).catch((error: unknown) => log.warn('auth.throttle_sweep_failed', redactError(error)));
}

export async function sweepExpiredCounters(db: Knex, now: number): Promise<number> {
  return db(TABLE)
    .where('window_start', '<', now - LONGEST_WINDOW_MS)
    .andWhere((query) => void query.whereNull('locked_until').orWhere('locked_until', '<=', now))
    .delete();
}
