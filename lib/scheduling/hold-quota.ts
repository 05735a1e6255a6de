import { Refusal } from '@/lib/errors/refusal';
import { translator } from '@/lib/i18n';

/** Retry-After when holds never lapse on their own: the caller has to release one first. */
const RETRY_AFTER_WITHOUT_EXPIRY_SECONDS = 60;

/**
 * One API client cannot empty an agenda: it holds at most MAX_ACTIVE_HOLDS_PER_CLIENT active
 * reservations at once. A refusal like any other (429 with Retry-After, worded in the caller's
 * language at the edge); nothing was reserved, so the same request may be sent again later.
 */
export class HoldQuotaExceeded extends Refusal {
  /** Seconds until the owner's oldest hold lapses, when holds expire; otherwise a minute. */
  readonly retryAfterSeconds: number;

  constructor(
    readonly limit: number,
    oldestLapsesInSeconds?: number,
  ) {
    const wording = { key: 'scheduling.holdQuotaExceeded', values: { limit } } as const;
    const retryAfterSeconds = oldestLapsesInSeconds ?? RETRY_AFTER_WITHOUT_EXPIRY_SECONDS;
    super('throttled', translator('en')(wording.key, wording.values), { retryAfterSeconds, wording });
    this.retryAfterSeconds = retryAfterSeconds;
    this.name = 'HoldQuotaExceeded';
  }
}

/** Throws when one more hold would pass `limit`; `oldestExpiresAt` (epoch ms) sets Retry-After. */
export function assertHoldQuota(active: number, limit: number | undefined, now: number, oldestExpiresAt?: number | null): void {
  if (limit === undefined || active < limit) return;
  const retryAfter = oldestExpiresAt ? Math.max(1, Math.ceil((oldestExpiresAt - now) / 1000)) : undefined;
  throw new HoldQuotaExceeded(limit, retryAfter);
}
