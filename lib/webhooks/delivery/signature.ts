import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { secretKey } from '../configurations/secrets';

/**
 * Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the
 * configuration's key. During a rotation's overlap both the new and the previous secret sign, as
 * space-separated signatures; receivers accept the message when any one verifies.
 */
export function signatureHeader(id: string, timestampSeconds: number, body: string, secrets: readonly string[]): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', keyObjectOf(secret)).update(content).digest('base64')}`).join(' ');
}

/**
 * Each secret's key as a KeyObject, made once: createHmac checks and copies a Buffer key on every
 * call (about 12 µs, four times the HMAC of a small message), a KeyObject's not. Bounded like the
 * deciphered secrets they come from (secrets.ts); a rotation's new secret is a new entry.
 */
const keys = new Map<string, KeyObject>();
const KEY_CACHE_SIZE = 1000;
function keyObjectOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    key = createSecretKey(secretKey(secret));
    if (keys.size >= KEY_CACHE_SIZE) keys.clear();
    keys.set(secret, key);
  }
  return key;
}
