/**
 * One API client cannot empty an agenda: it holds at most MAX_ACTIVE_HOLDS_PER_CLIENT active
 * reservations at once. The route answers 429 in the caller's language (lib/api/operations/scheduling.ts).
 */
export class HoldQuotaExceeded extends Error {
  constructor(
    readonly limit: number,
    /** Seconds until the owner's oldest hold lapses, when holds expire. */
    readonly retryAfterSeconds?: number,
  ) {
    super(`active reservation quota of ${limit} reached`);
    this.name = 'HoldQuotaExceeded';
  }
}

/** Throws when one more hold would pass `limit`; `oldestExpiresAt` (epoch ms) sets Retry-After. */
export function assertHoldQuota(active: number, limit: number | undefined, now: number, oldestExpiresAt?: number | null): void {
  if (limit === undefined || active < limit) return;
  const retryAfter = oldestExpiresAt ? Math.max(1, Math.ceil((oldestExpiresAt - now) / 1000)) : undefined;
  throw new HoldQuotaExceeded(limit, retryAfter);
}
