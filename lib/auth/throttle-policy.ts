/**
 * Brute-force policy for console sign-in and the token endpoint, as pure functions over one counter
 * row. Two counters apply to each attempt: identity (e-mail or client_id) + client address (tight),
 * and the identity alone (looser, because the address comes from X-Forwarded-For and can be varied
 * by whoever sends the request). Counters exist for any e-mail or client_id sent, so a lock never
 * tells whether the account exists. Attempts are counted before the secret is checked and a
 * success clears the counters, so `failures` counts attempts since the last success.
 */
export type ThrottleRow = { failures: number; windowStart: number; lockedUntil: number | null };

export type ThrottleRule = { maxFailures: number; windowMs: number; lockMs: number };

const MINUTE = 60_000;

export const THROTTLE_RULES = {
  emailAndAddress: { maxFailures: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  emailOnly: { maxFailures: 20, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  // Machines retry faster than people, and a lock of the client alone stops a legitimate client
  // too: shorter locks, a higher address-independent limit.
  clientAndAddress: { maxFailures: 10, windowMs: 15 * MINUTE, lockMs: 5 * MINUTE },
  clientOnly: { maxFailures: 50, windowMs: 15 * MINUTE, lockMs: 5 * MINUTE },
} satisfies Record<string, ThrottleRule>;

export function isLocked(row: ThrottleRow | undefined, now: number): boolean {
  return row?.lockedUntil != null && row.lockedUntil > now;
}

/** The counter after one more attempt: a new window once the old one is over, a lock at the limit. */
export function afterFailure(row: ThrottleRow | undefined, now: number, rule: ThrottleRule): ThrottleRow {
  const windowOpen = row !== undefined && now - row.windowStart < rule.windowMs && !lockExpired(row, now);
  const failures = windowOpen ? row.failures + 1 : 1;
  const windowStart = windowOpen ? row.windowStart : now;
  return { failures, windowStart, lockedUntil: failures >= rule.maxFailures ? now + rule.lockMs : null };
}

/** After a lock runs out the user gets a fresh set of attempts, not one more before relocking. */
function lockExpired(row: ThrottleRow, now: number): boolean {
  return row.lockedUntil !== null && row.lockedUntil <= now;
}
