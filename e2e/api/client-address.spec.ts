import { expect, test } from '@playwright/test';
import { formBody, requestFrom } from '../support/from-address';
import { webhookPath } from '../support/api';
import { staffSessionCookie } from '../support/server-db';
import { STAFF, THROTTLE_CLIENT, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The address rate limits count against is the TCP peer's, not what a caller writes in
 * X-Forwarded-For, unless the peer is a trusted proxy (the shared server trusts 127.0.0.1 only).
 * These callers connect from 127.0.0.2+ and forge the forwarding headers.
 */
const TOKEN_PATH = '/api/v1/auth/token';

test('forged X-Forwarded-For does not spread guesses: the guessing address is locked, the owner elsewhere is not', async ({ baseURL }) => {
  const token = (from: string, secret: string, forwardedFor: string) => {
    const form = formBody({ grant_type: 'client_credentials', client_id: THROTTLE_CLIENT.clientId, client_secret: secret });
    return requestFrom(from, `${baseURL}${TOKEN_PATH}`, {
      method: 'POST',
      headers: { ...form.headers, 'x-forwarded-for': forwardedFor },
      body: form.body,
    });
  };
  const statuses = [];
  for (let i = 0; i < 12; i++) statuses.push((await token('127.0.0.3', `errado-${i}`, `203.0.113.${i + 1}`)).status);
  expect(statuses).toEqual([...Array.from({ length: 10 }, () => 401), 429, 429]);

  const locked = await token('127.0.0.3', THROTTLE_CLIENT.clientSecret, '203.0.113.200');
  expect(locked.status).toBe(429);
  expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
  expect(locked.json()).toEqual({ error: 'invalid_client', error_description: 'Too many failed attempts; retry later.' });

  expect((await token('127.0.0.4', THROTTLE_CLIENT.clientSecret, '203.0.113.1')).status).toBe(200);
});

test('21 wrong staff passwords from one address do not lock the staff member out at another', async ({ baseURL }) => {
  const account = STAFF.webhooks;
  const signIn = async (from: string, password: string, forwardedFor: string) => {
    const csrf = await requestFrom(from, `${baseURL}/api/auth/csrf`);
    const cookie = (csrf.headers['set-cookie'] ?? []).map((value) => value.split(';')[0]).join('; ');
    const form = formBody({ email: account.email, password, csrfToken: csrf.json<{ csrfToken: string }>().csrfToken, json: 'true' });
    const response = await requestFrom(from, `${baseURL}/api/auth/callback/credentials`, {
      method: 'POST',
      headers: { ...form.headers, cookie, 'x-forwarded-for': forwardedFor },
      body: form.body,
    });
    // next-auth answers the URL it would send the browser to: ?error=… on a refusal.
    return new URL(response.json<{ url: string }>().url).searchParams.get('error');
  };
  const errors = [];
  for (let i = 0; i < 21; i++) errors.push(await signIn('127.0.0.5', `errada-${i}`, `198.18.0.${i + 1}`));
  expect(errors.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => 'CredentialsSignin'));
  expect(errors.slice(5)).toEqual(Array.from({ length: 16 }, () => 'locked'));
  expect(await signIn('127.0.0.5', account.password, '198.18.0.99')).toBe('locked');

  expect(await signIn('127.0.0.6', account.password, '198.18.0.1')).toBeNull();
});

test('the same-origin check believes X-Forwarded-Host and -Proto only from a trusted proxy, and compares scheme and port', async ({
  baseURL,
}) => {
  const cookie = await staffSessionCookie(STAFF.webhooks.email);
  // An empty body leaves the configuration as it was; only the origin check is under test.
  const put = (from: string, headers: Record<string, string>) =>
    requestFrom(from, `${baseURL}${webhookPath(WEBHOOK_IDS.a8)}`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json', ...headers },
      body: '{}',
    });
  const own = new URL(baseURL!);
  const forged = { origin: 'https://console.exemplo.com.br', 'x-forwarded-host': 'console.exemplo.com.br', 'x-forwarded-proto': 'https' };

  expect((await put('127.0.0.7', forged)).status).toBe(403);
  expect((await put('127.0.0.1', forged)).status).toBe(200);
  expect((await put('127.0.0.1', { ...forged, origin: 'http://console.exemplo.com.br' })).status).toBe(403);

  expect((await put('127.0.0.7', { origin: own.origin })).status).toBe(200);
  expect((await put('127.0.0.7', { origin: `https://${own.host}` })).status).toBe(403);
  expect((await put('127.0.0.7', { origin: `http://${own.hostname}:${Number(own.port) + 1}` })).status).toBe(403);
  expect((await put('127.0.0.7', { origin: 'null' })).status).toBe(403);
});
