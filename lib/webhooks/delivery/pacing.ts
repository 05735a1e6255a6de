/**
 * A configuration's rate limit (issue 31), as GCRA (the generic cell rate algorithm), kept in the
 * shared database so the limit holds across instances, in two steps:
 * - the claim (`allowance`, `rate_tat`) admits about as many deliveries as the rate allows, so
 *   deliveries do not hold worker slots waiting for their turn;
 * - the send (`sendSlot`, `rate_sent_tat`, issue 45) takes the slot the request leaves in, under
 *   the configuration row's lock and with the clock read once that lock is held, just before the
 *   request is made: a claim held up by the tenant's lock, its load or a busy machine does not
 *   bunch requests at the receiver, and the attempt's logged start is when the request left.
 * Attempts go out at most one per interval, with a small burst: in any window of W seconds at most
 * W × perSecond + burst − 1 attempts start, which for the bursts below is within 1 % of the limit
 * over 10 s.
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

/**
 * Whether a request may leave now, asked just before it would: if so, it takes the slot and the
 * configuration's send `tat` moves on from now; if not, how long until it may ask again. A slot is
 * never taken ahead and then waited for: a request whose wait ran late (a busy machine's timers)
 * would leave together with the next one, which took the following slot on time, and bunch at the
 * receiver. Taken only when due, a late request pushes the following slots back instead.
 */
export type SendSlot = { goNow: true; tat: number } | { goNow: false; waitMs: number };

export function sendSlot({ perSecond, tat }: Pace, now: number): SendSlot {
  const interval = 1000 / perSecond;
  const tolerance = (burstOf(perSecond) - 1) * interval;
  const start = Math.max(tat ?? now, now);
  const sendAt = start - tolerance;
  return sendAt > now ? { goNow: false, waitMs: sendAt - now } : { goNow: true, tat: start + interval };
}
