import { createHmac } from 'node:crypto';
import { secretKey } from '../configurations/secrets';

/**
 * Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the
 * configuration's key. During a rotation's overlap both the new and the previous secret sign, as
 * space-separated signatures; receivers accept the message when any one verifies.
 */
export function signatureHeader(id: string, timestampSeconds: number, body: string, secrets: readonly string[]): string {
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content).digest('base64')}`).join(' ');
}
