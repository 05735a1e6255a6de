/**
 * Brute-force policy for console sign-in and the token endpoint, as pure functions over one counter
 * row. Two counters apply to each attempt, both keyed by the caller's real address
 * (lib/http/client-address.ts, which believes X-Forwarded-For only from TRUSTED_PROXIES; an IPv6
 * client by its /64, throttle-address.ts):
 * - identity (e-mail or client_id) + address, tight: guesses at one account from one place;
 * - the address alone, looser: one place guessing at many accounts (or unknown client_ids).
 * There is deliberately no counter of the identity alone: anyone could then lock the real owner
 * out by failing on purpose. Slow the attacker's address, never the account. (A password change's
 * current password is the exception: only someone signed in to the account can get it wrong, so
 * its counters are the session's and the account's; login-throttle.ts, passwordChangeCounters.)
 * Counters exist for any e-mail or client_id sent, so a lock never tells whether the account
 * exists. Attempts are counted before the secret is checked (parallel guesses cannot outrun the
 * limit); a success clears the identity counter and takes its attempt back from the address one,
 * so `failures` counts failures.
 */
export type ThrottleRow = { failures: number; windowStart: number; lockedUntil: number | null };

export type ThrottleRule = { maxFailures: number; windowMs: number; lockMs: number };

const MINUTE = 60_000;

export const THROTTLE_RULES = {
  emailAndAddress: { maxFailures: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  // A hospital's staff may share one NAT address: room for everyone's typos.
  signInAddress: { maxFailures: 30, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  // Machines retry faster than people: shorter locks.
  clientAndAddress: { maxFailures: 10, windowMs: 15 * MINUTE, lockMs: 5 * MINUTE },
  tokenAddress: { maxFailures: 50, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  // A wrong current password at a password change (login-throttle.ts, passwordChangeCounters):
  // as tight as sign-in for one session; four sessions' worth for the account.
  passwordChangeSession: { maxFailures: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  passwordChangeAccount: { maxFailures: 20, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
} satisfies Record<string, ThrottleRule>;

/** Rows older than this whose lock has run out say nothing any more and are swept. */
export const LONGEST_WINDOW_MS = Math.max(...Object.values(THROTTLE_RULES).map((rule) => Math.max(rule.windowMs, rule.lockMs)));

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
