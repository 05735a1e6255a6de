import 'server-only';
import { randomBytes } from 'node:crypto';
import { sealer } from '@/lib/auth/sealing';

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
/** Sealed with lib/auth/sealing.ts under the key these values have always used. */
const sealing = sealer('webhook-signing-secrets');

/** What a ciphertext is for, and whose: its associated data. */
export type SealedFor = { purpose: 'webhook-signing-secret' | 'broker-credentials'; configId: string };

function associatedData({ purpose, configId }: SealedFor): string {
  return `${purpose}:${configId}`;
}

export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The HMAC key a secret stands for: the base64 after the prefix. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function encryptSecret(secret: string, sealedFor: SealedFor): string {
  return sealing.seal(secret, associatedData(sealedFor));
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
    secret = sealing.open(stored, associatedData(sealedFor));
    if (decrypted.size >= DECRYPTED_CACHE_SIZE) decrypted.clear();
    decrypted.set(key, secret);
  }
  return secret;
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
