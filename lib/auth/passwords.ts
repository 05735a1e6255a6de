import 'server-only';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt password and client-secret hashing, stored as `scrypt$N$r$p$salt$hash` so the cost can
 * be raised later without invalidating stored hashes.
 */
const COST = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

function derive(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(secret, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) {
    // As much work as a real check: an account without a password (SSO's '!') must not answer
    // faster than one with a password, or timing would tell which accounts use single sign-on.
    await verifySecret(secret, await decoySecretHash());
    return false;
  }
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of nothing in particular, verified against when a user is unknown so timing does not tell. */
let decoyHash: Promise<string> | undefined;
export function decoySecretHash(): Promise<string> {
  decoyHash ??= hashSecret(randomBytes(16).toString('hex'));
  return decoyHash;
}
