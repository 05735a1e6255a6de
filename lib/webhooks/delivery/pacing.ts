/**
 * A configuration's rate limit (issue 31), as GCRA (the generic cell rate algorithm): one
 * theoretical arrival time (`tat`) per configuration, kept in the shared database and moved on by
 * each claim under the tenant's lock, so the limit holds across instances. Attempts go out at most
 * one per interval, with a small burst so that claims a few milliseconds late do not lose slots:
 * in any window of W seconds at most W × perSecond + burst − 1 attempts start, which for the
 * bursts below is within 1 % of the limit over 10 s.
 */
export type Pace = { perSecond: number; tat: number | null };

/** The burst: a tenth of a second's worth of attempts, at least 1 (at 50/s: 5; at 1,000/s: 100; at 5/s: none). */
export function burstOf(perSecond: number): number {
  return Math.max(1, Math.floor(perSecond / 10));
}

export type Allowance = {
  /** Attempts that may start now. */
  allowed: number;
  /** The configuration's `tat` once `count` of them have been claimed. */
  tatAfter(count: number): number;
  /**
   * When a whole burst may start, if none may now: waking then rather than for each single slot
   * costs a claim a burst, not a claim an attempt.
   */
  readyAt: number;
};

export function allowance({ perSecond, tat }: Pace, now: number): Allowance {
  const interval = 1000 / perSecond;
  const tolerance = (burstOf(perSecond) - 1) * interval;
  const start = Math.max(tat ?? now, now);
  const allowed = start - tolerance > now ? 0 : Math.floor((now + tolerance - start) / interval) + 1;
  return { allowed, tatAfter: (count) => start + count * interval, readyAt: start };
}
