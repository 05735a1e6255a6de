import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { verifySecret } from './passwords';

/**
 * API client secrets. They are long random values, not passwords a person picks, so a salted slow
 * hash buys nothing against guessing and costs the server ~50 ms of CPU per request: anyone could
 * burn the CPU by sending unknown client_ids. A SHA-256 digest compared in constant time verifies in
 * microseconds, for known and unknown clients alike. Secrets the product generates carry 256
 * random bits; seeded ones should be as long (docs/production.md).
 *
 * Hashes stored before this scheme are scrypt (`scrypt$…`): verified once more that way, and the
 * caller replaces them with the fast form on the first success.
 */
const SCHEME = 'sha256';

function digest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

export function hashClientSecret(secret: string): string {
  return `${SCHEME}$${digest(secret).toString('base64url')}`;
}

/** 32 random bytes (256 bits), URL-safe, with a prefix that tells what the string is when it leaks. */
export function generateClientSecret(): string {
  return `ics_${randomBytes(32).toString('base64url')}`;
}

/** Compared against when the client_id is unknown, so the answer takes the same time. */
const DECOY = hashClientSecret(randomBytes(32).toString('base64url'));

export type SecretCheck = { valid: boolean; rehash?: string };

export async function verifyClientSecret(secret: string, stored: string | undefined): Promise<SecretCheck> {
  const [scheme, encoded] = (stored ?? DECOY).split('$', 2);
  if (scheme === SCHEME && encoded) {
    const expected = Buffer.from(encoded, 'base64url');
    const actual = digest(secret);
    return { valid: stored !== undefined && expected.length === actual.length && timingSafeEqual(actual, expected) };
  }
  const valid = stored !== undefined && (await verifySecret(secret, stored));
  return valid ? { valid, rehash: hashClientSecret(secret) } : { valid };
}
