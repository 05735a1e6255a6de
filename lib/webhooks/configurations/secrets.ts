import 'server-only';
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { signingSecret } from '@/lib/auth/signing-secret';

/**
 * Each configuration's signing secret (Standard Webhooks: `whsec_` + base64 of the key; 32 random
 * bytes here). Stored encrypted with AES-256-GCM under a key derived (HKDF) from the app's signing
 * secret, so a database dump alone does not hand them out. Changing AUTH_SECRET makes stored
 * secrets unreadable: rotate each configuration's secret afterwards (docs/production.md).
 *
 * Every ciphertext is bound (GCM associated data) to what it is for and to its configuration
 * (issue 43): one with write access to the database but not the key cannot move a broker password
 * into a signing-secret column, or one configuration's secret into another's row, and read it
 * back through the secret operation; the move fails authentication instead. Format `v2`; `v1`
 * (unbound) values were re-sealed by migration 020_bound_ciphertexts and are refused.
 */
const PREFIX = 'whsec_';
const FORMAT = 'v2';

/** What a ciphertext is for, and whose: its associated data. */
export type SealedFor = { purpose: 'webhook-signing-secret' | 'broker-credentials'; configId: string };

function associatedData({ purpose, configId }: SealedFor): Buffer {
  return Buffer.from(`${purpose}:${configId}`, 'utf8');
}

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

export function encryptSecret(secret: string, sealedFor: SealedFor): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv);
  cipher.setAAD(associatedData(sealedFor));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(':');
}

/**
 * Secrets already decrypted, by stored value and binding: every attempt signs with its
 * configuration's secret, and deciphering it each time was a few per cent of a delivery's CPU. The
 * process holds the plaintext during each attempt anyway. A rotation stores a new value, so
 * nothing goes stale; the binding is in the key, so a moved value is deciphered (and refused) anew.
 */
const decrypted = new Map<string, string>();
const DECRYPTED_CACHE_SIZE = 1000;

/** The clear text of a value sealed for `sealedFor`; throws for any other value, a moved one included. */
export function decryptSecret(stored: string, sealedFor: SealedFor): string {
  const key = `${sealedFor.purpose}:${sealedFor.configId}:${stored}`;
  let secret = decrypted.get(key);
  if (secret === undefined) {
    secret = decipher(stored, sealedFor);
    if (decrypted.size >= DECRYPTED_CACHE_SIZE) decrypted.clear();
    decrypted.set(key, secret);
  }
  return secret;
}

function decipher(stored: string, sealedFor: SealedFor): string {
  const [format, iv, sealed, tag] = stored.split(':');
  if (format !== FORMAT || !iv || !sealed || !tag) throw new Error('unknown webhook secret format');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(), Buffer.from(iv, 'base64url'));
  decipher.setAAD(associatedData(sealedFor));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}

const signingSecretOf = (configId: string): SealedFor => ({ purpose: 'webhook-signing-secret', configId });

/** A configuration's signing secret (current or previous column), sealed for it. */
export function encryptSigningSecret(configId: string, secret: string): string {
  return encryptSecret(secret, signingSecretOf(configId));
}

export function decryptSigningSecret(configId: string, stored: string): string {
  return decryptSecret(stored, signingSecretOf(configId));
}

/** A new configuration's secret column. */
export function newEncryptedSecret(configId: string): string {
  return encryptSigningSecret(configId, generateWebhookSecret());
}
