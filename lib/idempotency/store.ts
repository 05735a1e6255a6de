import 'server-only';
import type { Knex } from 'knex';
import { isUniqueViolation, toNumber, type DbRow } from '@/lib/db/dialect';

/**
 * Idempotency keys kept in the database (table `idempotency_keys`), so every instance behind a
 * load balancer sees the same keys. The primary key (owner, idem_key) is the lock: the request
 * whose INSERT succeeds owns the key; every other one reads the row and is told to wait, replay
 * or stop. Nothing lives in process memory.
 *
 * Lifecycle of a row: `in_flight` while the owner runs the operation, then `done` with the stored
 * answer, kept RETENTION_MS. An answer that must not be replayed (a 4xx the operation raised
 * before acting, a 5xx, a crash) deletes the row, so a retry runs again. A row left `in_flight`
 * by an instance that died is taken over after the in-flight timeout, which the caller derives from
 * the operation's longest possible run (at least IN_FLIGHT_TIMEOUT_MS), so a key is never taken over
 * while its first attempt may still be running: running the reservation again after the holder died
 * is safe, the procedure itself answers "already reserved/booked" (2/5) or "cannot cancel" (4) if
 * the first attempt did act.
 */
import { IN_FLIGHT_TIMEOUT_MS, RETENTION_MS } from './constants';

export { IN_FLIGHT_TIMEOUT_MS, RETENTION_MS };

const TABLE = 'idempotency_keys';

/** `headers` (e.g. Retry-After) go out with the first answer only; replays carry status and body. */
export type StoredAnswer = { status: number; body: unknown; headers?: Record<string, string> };

export type Claim =
  { kind: 'claimed'; claimedAt: number } | { kind: 'replay'; answer: StoredAnswer } | { kind: 'mismatch' } | { kind: 'in-flight' };

type KeyRef = { owner: string; key: string };

const where = ({ owner, key }: KeyRef) => ({ owner, idem_key: key });

export async function claimKey(
  db: Knex,
  ref: KeyRef,
  requestHash: string,
  now = Date.now(),
  inFlightTimeoutMs = IN_FLIGHT_TIMEOUT_MS,
): Promise<Claim> {
  await sweepExpired(db, now);
  // Two rounds at most: the second follows the removal of an expired or abandoned row.
  for (let round = 0; round < 2; round++) {
    if (await tryInsert(db, ref, requestHash, now)) return { kind: 'claimed', claimedAt: now };
    const row = (await db(TABLE).where(where(ref)).first()) as DbRow | undefined;
    if (!row) continue; // finished and removed between our INSERT and SELECT: try again
    const createdAt = toNumber(row.created_at);
    const expired = now - createdAt >= RETENTION_MS;
    const abandoned = row.state === 'in_flight' && now - createdAt >= inFlightTimeoutMs;
    if (!expired && row.request_hash !== requestHash) return { kind: 'mismatch' };
    if (expired || abandoned) {
      // Conditional on what we read, so of two contenders only one removes it and re-inserts.
      await db(TABLE)
        .where({ ...where(ref), created_at: row.created_at, state: row.state })
        .delete();
      continue;
    }
    if (row.state === 'in_flight') return { kind: 'in-flight' };
    return { kind: 'replay', answer: { status: toNumber(row.http_status), body: JSON.parse(String(row.response_json)) } };
  }
  return { kind: 'in-flight' };
}

/** Stores the answer for replays; a no-op if the claim was taken over meanwhile. */
export async function completeKey(db: Knex, ref: KeyRef, claimedAt: number, answer: StoredAnswer): Promise<void> {
  await db(TABLE)
    .where({ ...where(ref), created_at: claimedAt, state: 'in_flight' })
    .update({ state: 'done', http_status: answer.status, response_json: JSON.stringify(answer.body) });
}

/** Gives the key back, so a retry runs the operation again. */
export async function releaseKey(db: Knex, ref: KeyRef, claimedAt: number): Promise<void> {
  await db(TABLE)
    .where({ ...where(ref), created_at: claimedAt, state: 'in_flight' })
    .delete();
}

async function tryInsert(db: Knex, ref: KeyRef, requestHash: string, now: number): Promise<boolean> {
  try {
    await db(TABLE).insert({
      ...where(ref),
      request_hash: requestHash,
      state: 'in_flight',
      http_status: null,
      response_json: null,
      created_at: now,
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Expired rows go at most once a minute per process; the created_at index keeps it cheap. */
let lastSweep = 0;
async function sweepExpired(db: Knex, now: number): Promise<void> {
  if (now - lastSweep < 60_000) return;
  lastSweep = now;
  await db(TABLE)
    .where('created_at', '<', now - RETENTION_MS)
    .delete();
}
