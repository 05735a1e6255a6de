import 'server-only';
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { signingSecret } from '@/lib/auth/signing-secret';

/**
 * Values the app keeps encrypted at rest (AES-256-GCM under a key derived with HKDF from the app's
 * signing secret), so a database dump alone does not hand them out. Each sealed value is bound
 * (GCM associated data) to what it is for and to its row: one with write access to the database
 * but not the key cannot move it into another column or row and have it opened there; opening it
 * fails instead. Changing AUTH_SECRET makes every sealed value unreadable.
 *
 * Stored as `v2:<iv>:<ciphertext>:<tag>` (base64url); `v2` is the bound format (issue 43).
 */
const FORMAT = 'v2';

/** Seals and opens values under one derived key; `boundTo` is the associated data, e.g. `purpose:rowId`. */
export type Sealer = {
  seal(clear: string, boundTo: string): string;
  /** The clear text; throws for a value sealed for anything else, a moved one included. */
  open(stored: string, boundTo: string): string;
};

/** A sealer whose key is derived for `keyPurpose` (the HKDF info): values of different purposes use different keys. */
export function sealer(keyPurpose: string): Sealer {
  let key: KeyObject | undefined;
  const keyOf = () => (key ??= createSecretKey(Buffer.from(hkdfSync('sha256', signingSecret(), 'integration-console', keyPurpose, 32))));
  return {
    seal(clear, boundTo) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', keyOf(), iv);
      cipher.setAAD(Buffer.from(boundTo, 'utf8'));
      const sealed = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
      return [FORMAT, iv.toString('base64url'), sealed.toString('base64url'), cipher.getAuthTag().toString('base64url')].join(':');
    },
    open(stored, boundTo) {
      const [format, iv, sealed, tag] = stored.split(':');
      if (format !== FORMAT || !iv || !sealed || !tag) throw new Error('unknown sealed value format');
      const decipher = createDecipheriv('aes-256-gcm', keyOf(), Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
