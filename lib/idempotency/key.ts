import 'server-only';
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

export { canonicalJson };

/**
 * The caller-facing rules of `Idempotency-Key` (no database): what a key may look like, and the
 * fingerprint that tells "the same request again" from "another request under the same key".
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** 1 to 255 visible ASCII characters: fits the key column and any log line unchanged. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

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
