import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SignJWT } from 'jose';
import { bearer, tokenFor, webhookPath } from '../support/api';
import { TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/** §5 and the token endpoint (OAuth 2.0 client credentials) through the real server. */
const LIST = '/api/v2/avaliacao-saude/configuracao-web-hook';

function serverSecret(): Uint8Array {
  // The e2e server runs without AUTH_SECRET, so it generated one into its DATA_DIR.
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is set by global-setup');
  return new TextEncoder().encode(fs.readFileSync(path.join(dataDir, 'auth-secret'), 'utf8').trim());
}

const ACCESS_TOKEN_HEADER = { alg: 'HS256', typ: 'at+jwt' };

function claims() {
  return new SignJWT({ usuarioId: TENANT_A.usuarioId, sistemaOrigem: TENANT_A.sistemaOrigem })
    .setSubject(TENANT_A.clientId)
    .setIssuer('integration-console')
    .setAudience('integration-api')
    .setIssuedAt();
}

test.describe('token endpoint', () => {
  test('issues a Bearer token for form-body credentials', async ({ request }) => {
    const response = await request.post('/api/v1/auth/token', {
      form: { grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret },
    });
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toContain('no-store');
    const body = await response.json();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900, scope: 'webhooks scheduling' });
    expect((await request.get(LIST, { headers: bearer(body.access_token) })).status()).toBe(200);
  });

  test('accepts HTTP Basic client authentication', async ({ request }) => {
    const basic = Buffer.from(`${TENANT_A.clientId}:${TENANT_A.clientSecret}`).toString('base64');
    const response = await request.post('/api/v1/auth/token', {
      headers: { Authorization: `Basic ${basic}` },
      form: { grant_type: 'client_credentials' },
    });
    expect(response.status()).toBe(200);
  });

  test('bad credentials → 401 invalid_client, the same for an unknown client', async ({ request }) => {
    for (const [id, secret] of [
      [TENANT_A.clientId, 'wrong-secret'],
      ['nobody', 'whatever'],
    ] as const) {
      const response = await request.post('/api/v1/auth/token', {
        form: { grant_type: 'client_credentials', client_id: id, client_secret: secret },
      });
      expect(response.status()).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid_client' });
    }
  });

  test('other grants and missing parameters are refused with the RFC 6749 errors', async ({ request }) => {
    const password = await request.post('/api/v1/auth/token', { form: { grant_type: 'password', username: 'a', password: 'b' } });
    expect(password.status()).toBe(400);
    expect((await password.json()).error).toBe('unsupported_grant_type');
    const missing = await request.post('/api/v1/auth/token', { form: { client_id: 'a' } });
    expect(missing.status()).toBe(400);
    expect((await missing.json()).error).toBe('invalid_request');
  });
});

test.describe('Bearer authentication on the API', () => {
  test('no Authorization header → 401 problem with WWW-Authenticate: Bearer', async ({ request }) => {
    for (const response of [
      await request.get(LIST),
      await request.put(webhookPath(WEBHOOK_IDS.a8), { data: {} }),
      await request.post('/api/v1/agendamentos/slots-livres/reservar', { data: {} }),
    ]) {
      expect(response.status()).toBe(401);
      expect(response.headers()['www-authenticate']).toMatch(/^Bearer/);
      expect(response.headers()['content-type']).toContain('application/problem+json');
    }
  });

  test('garbage, alg:none, tampered, expired, foreign-audience, wrong-type, future and overlong tokens → 401', async ({ request }) => {
    const good = await tokenFor(request);
    const [header, payload] = good.split('.');
    const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const tamperedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), usuarioId: '22222222-2222-4222-8222-222222222222' }),
    ).toString('base64url');
    const secret = serverSecret();
    const now = Math.floor(Date.now() / 1000);
    const expired = await claims()
      .setProtectedHeader(ACCESS_TOKEN_HEADER)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(secret);
    const foreign = await claims().setAudience('another-api').setProtectedHeader(ACCESS_TOKEN_HEADER).setExpirationTime('5m').sign(secret);
    const noExpiry = await claims().setProtectedHeader(ACCESS_TOKEN_HEADER).sign(secret);
    // RFC 9068: an access token says so in its header; a plain JWT signed with the same key is not one.
    const noType = await claims().setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').sign(secret);
    const idTokenType = await claims().setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setExpirationTime('5m').sign(secret);
    // Issued ten minutes from now (beyond the 30 s skew), and a year-long token (the server's maximum is 900 s).
    const future = await claims()
      .setProtectedHeader(ACCESS_TOKEN_HEADER)
      .setIssuedAt(now + 600)
      .setExpirationTime(now + 900)
      .sign(secret);
    const overlong = await claims()
      .setProtectedHeader(ACCESS_TOKEN_HEADER)
      .setExpirationTime(now + 365 * 86_400)
      .sign(secret);
    const wrongKey = await claims()
      .setProtectedHeader(ACCESS_TOKEN_HEADER)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('x'.repeat(48)));

    const tokens = {
      garbage: 'not-a-token',
      algNone: `${noneHeader}.${payload}.`,
      tampered: `${header}.${tamperedPayload}.${good.split('.')[2]}`,
      expired,
      foreign,
      noExpiry,
      noType,
      idTokenType,
      future,
      overlong,
      wrongKey,
    };
    for (const [name, token] of Object.entries(tokens)) {
      const response = await request.get(LIST, { headers: bearer(token) });
      expect(response.status(), name).toBe(401);
      expect(response.headers()['www-authenticate'], name).toContain('invalid_token');
    }
    // The same signing path with a valid expiry works: the refusals above are about the defects.
    const valid = await claims().setProtectedHeader(ACCESS_TOKEN_HEADER).setExpirationTime('5m').sign(secret);
    expect((await request.get(LIST, { headers: bearer(valid) })).status()).toBe(200);
  });

  test('a non-Bearer scheme is refused', async ({ request }) => {
    const basic = Buffer.from(`${TENANT_A.clientId}:${TENANT_A.clientSecret}`).toString('base64');
    expect((await request.get(LIST, { headers: { Authorization: `Basic ${basic}` } })).status()).toBe(401);
  });
});
