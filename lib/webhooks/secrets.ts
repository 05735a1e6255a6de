import 'server-only';
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { signingSecret } from '@/lib/auth/signing-secret';

/**
 * Each configuration's signing secret (Standard Webhooks: `whsec_` + base64 of the key; 32 random
 * bytes here). Stored encrypted with AES-256-GCM under a key derived (HKDF) from the app's signing
 * secret, so a database dump alone does not hand them out. Changing AUTH_SECRET makes stored
 * secrets unreadable: rotate each configuration's secret afterwards (docs/production.md).
 */
const PREFIX = 'whsec_';
const FORMAT = 'v1';

export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The HMAC key a secret stands for: the base64 after the prefix. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

let cachedKey: KeyObject | undefined;
function encryptionKey(): KeyObject {
  cachedKey ??= createSecretKey(Buffer.from(hkdfSync('sha256', signingSecret(), 'integration-console', 'webhook-signing-secrets', 32)));
  return cachedKey;
}

export function encryptSecret(secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(':');
}

/**
 * Secrets already decrypted, by stored value: every attempt signs with its configuration's secret,
 * and deciphering it each time was a few per cent of a delivery's CPU. The process holds the
 * plaintext during each attempt anyway. A rotation stores a new value, so nothing goes stale.
 */
const decrypted = new Map<string, string>();
const DECRYPTED_CACHE_SIZE = 1000;

export function decryptSecret(stored: string): string {
  let secret = decrypted.get(stored);
  if (secret === undefined) {
    secret = decipher(stored);
    if (decrypted.size >= DECRYPTED_CACHE_SIZE) decrypted.clear();
    decrypted.set(stored, secret);
  }
  return secret;
}

function decipher(stored: string): string {
  const [format, iv, sealed, tag] = stored.split(':');
  if (format !== FORMAT || !iv || !sealed || !tag) throw new Error('unknown webhook secret format');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}

/** A new configuration's secret column. */
export function newEncryptedSecret(): string {
  return encryptSecret(generateWebhookSecret());
}
