import { beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { decryptSecret, encryptSecret, generateWebhookSecret } from '../configurations/secrets';
import { signatureHeader } from './signature';
import { resetEnv } from '@/lib/testing/hooks';

/**
 * Our signature header checked by a receiver library this project did not write (the
 * `standardwebhooks` package): one secret, both secrets of a rotation's overlap, and the ways a
 * receiver must refuse a message (other secret, changed body, other id, stale timestamp).
 */
const id = 'msg_2q7xUnitTestDelivery';
const body = JSON.stringify({ type: 'webhook.teste', timestamp: '2026-01-01T00:00:00.000Z', data: { idEvento: 'e1' } });

function headersAt(timestampSeconds: number, secrets: readonly string[], signedBody = body, signedId = id) {
  return {
    'webhook-id': signedId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureHeader(signedId, timestampSeconds, signedBody, secrets),
  };
}

const now = () => Math.floor(Date.now() / 1000);

describe('Standard Webhooks signature', () => {
  const secret = generateWebhookSecret();
  const previous = generateWebhookSecret();

  it('generates whsec_ secrets of at least 24 random bytes, each different', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(previous).not.toBe(secret);
  });

  it('verifies with the standardwebhooks package', () => {
    expect(new Webhook(secret).verify(body, headersAt(now(), [secret]))).toEqual(JSON.parse(body));
  });

  it('during a rotation both secrets sign, space-separated, and each one verifies alone', () => {
    const headers = headersAt(now(), [secret, previous]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('is refused with another secret, a changed body, another id or a stale timestamp', () => {
    const other = generateWebhookSecret();
    expect(() => new Webhook(other).verify(body, headersAt(now(), [secret]))).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headersAt(now(), [secret]))).toThrow();
    const forOtherId = { ...headersAt(now(), [secret]), 'webhook-id': 'msg_other' };
    expect(() => new Webhook(secret).verify(body, forOtherId)).toThrow();
    // standardwebhooks accepts five minutes of clock difference; an hour-old replay is refused.
    expect(() => new Webhook(secret).verify(body, headersAt(now() - 3600, [secret]))).toThrow();
  });
});

describe('stored signing secrets', () => {
  beforeAll(() => {
    process.env.AUTH_SECRET = 'unit-test-auth-secret-of-at-least-32-characters';
    resetEnv();
  });

  const sealedFor = { purpose: 'webhook-signing-secret', configId: 'aaaaaaaa-0001-4000-8000-000000000001' } as const;

  it('round-trips through encryption, never stored in the clear, fresh IV each time', () => {
    const secret = generateWebhookSecret();
    const stored = encryptSecret(secret, sealedFor);
    expect(stored).not.toContain(secret.slice('whsec_'.length));
    expect(encryptSecret(secret, sealedFor)).not.toBe(stored);
    expect(decryptSecret(stored, sealedFor)).toBe(secret);
  });

  it('refuses a stored value that was tampered with', () => {
    const [format, iv, sealed, tag] = encryptSecret(generateWebhookSecret(), sealedFor).split(':');
    const flipped = Buffer.from(sealed!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => decryptSecret([format, iv, flipped.toString('base64url'), tag].join(':'), sealedFor)).toThrow();
  });
});
