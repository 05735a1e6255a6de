import 'server-only';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { IDEMPOTENCY_HEADER, isValidIdempotencyKey, requestFingerprint } from './key';
import { claimKey, completeKey, releaseKey, type StoredAnswer } from './store';

/**
 * `Idempotency-Key` for a POST (the Stripe convention): the same key and body from the same caller
 * within 24 h answers the stored response again with `Idempotency-Replayed: true`, without running
 * the operation; the same key with another body → 422; a repeat while the first is running → 409.
 * Only answers of an operation that ran to a result are stored: a 4xx raised before acting (bad
 * fields, missing ieLado) and any 5xx are not, so the caller can fix or retry under the same key.
 */
export const REPLAYED_HEADER = 'Idempotency-Replayed';

/** The key of the request, undefined when none was sent; 400 when it breaks the syntax. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return undefined;
  if (!isValidIdempotencyKey(key)) {
    throw new FieldRejected(IDEMPOTENCY_HEADER, 'idempotencyKeyInvalid', 'The Idempotency-Key header is invalid.', '');
  }
  return key;
}

/** The operation's answer, or the stored one (`replayed`): the route sends it with REPLAYED_HEADER. */
export type IdempotentAnswer<A extends StoredAnswer = StoredAnswer> = { answer: A; replayed: boolean };

export async function idempotent<A extends StoredAnswer>(
  /** `inFlightTimeoutMs`: at least the operation's longest run (constants.ts inFlightTimeoutFor). */
  scope: { owner: string; key: string | undefined; body: unknown; inFlightTimeoutMs: number },
  operation: () => Promise<A>,
): Promise<IdempotentAnswer<A>> {
  if (scope.key === undefined) return { answer: await operation(), replayed: false };
  const db = await getDb();
  const ref = { owner: scope.owner, key: scope.key };
  const claim = await claimKey(db, ref, requestFingerprint(scope.body), Date.now(), scope.inFlightTimeoutMs);
  switch (claim.kind) {
    case 'replay':
      // Stored from an answer of this same operation (the key is the caller's, for one operation).
      return { answer: claim.answer as A, replayed: true };
    case 'mismatch':
      throw refuse.unprocessable(
        'idempotency-key-reused',
        'This Idempotency-Key was already used with a different body. Use a new key for a new request.',
      );
    case 'in-flight':
      throw refuse.conflict(
        'idempotency-in-flight',
        'A request with this Idempotency-Key is still being processed. Retry shortly to get its answer.',
        1,
      );
  }
  let answer: A;
  try {
    answer = await operation();
  } catch (error) {
    await releaseKey(db, ref, claim.claimedAt).catch(() => undefined);
    throw error;
  }
  if (answer.status >= 500) await releaseKey(db, ref, claim.claimedAt);
  else await completeKey(db, ref, claim.claimedAt, answer);
  return { answer, replayed: false };
}
