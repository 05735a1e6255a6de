import 'server-only';
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { IDEMPOTENCY_KEY_CHARACTERS, MAX_IDEMPOTENCY_KEY_LENGTH } from './key-syntax';

export { canonicalJson };

/**
 * The caller-facing rules of `Idempotency-Key` (no database): what a key may look like, and the
 * fingerprint that tells "the same request again" from "another request under the same key".
 */
export { IDEMPOTENCY_HEADER } from './key-syntax';

const KEY_PATTERN = new RegExp(`^${IDEMPOTENCY_KEY_CHARACTERS}{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`);

export function isValidIdempotencyKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * SHA-256 of the body in canonical JSON (keys sorted at every level), so a retry whose client
 * serialised the same fields in another order is still the same request.
 */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
