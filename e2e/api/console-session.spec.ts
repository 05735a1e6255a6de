import { expect, test } from '@playwright/test';
import { webhookPath } from '../support/api';
import { staffSessionCookie } from '../support/server-db';
import { STAFF, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The console's session cookie on the same API routes: roles decide, and a change authenticated by
 * cookie must come from the console's own origin (a cookie rides along on cross-site requests).
 * The PUTs send an empty body, so the configuration they reach is left as it was.
 */
const LIST = '/api/v2/avaliacao-saude/configuracao-web-hook';

test('staff with the webhooks role see every tenant’s configurations', async ({ request }) => {
  const cookie = await staffSessionCookie(STAFF.webhooks.email);
  const response = await request.get(LIST, { headers: { cookie } });
  expect(response.status()).toBe(200);
  const ids = (await response.json()).map((config: { id: string }) => config.id);
  expect(ids).toEqual(expect.arrayContaining([WEBHOOK_IDS.a8, WEBHOOK_IDS.b1]));
});

test('a role without the capability gets 403 on the API', async ({ request }) => {
  const cookie = await staffSessionCookie(STAFF.scheduling.email);
  const response = await request.get(LIST, { headers: { cookie } });
  expect(response.status()).toBe(403);
  expect(response.headers()['content-type']).toContain('application/problem+json');
});

test('a cookie-authenticated change needs the console’s own origin', async ({ request, baseURL }) => {
  const cookie = await staffSessionCookie(STAFF.webhooks.email);
  const put = (headers: Record<string, string>) => request.put(webhookPath(WEBHOOK_IDS.a8), { headers: { cookie, ...headers }, data: {} });

  const noOrigin = await put({});
  expect(noOrigin.status()).toBe(403);
  expect((await noOrigin.json()).type).toContain('cross-origin');
  expect((await put({ origin: 'https://evil.example' })).status()).toBe(403);
  expect((await put({ 'sec-fetch-site': 'cross-site' })).status()).toBe(403);

  expect((await put({ origin: new URL(baseURL!).origin })).status()).toBe(200);
  expect((await put({ 'sec-fetch-site': 'same-origin' })).status()).toBe(200);
});

test('a session cookie that does not decode is no session: 401, not 500', async ({ request }) => {
  for (const cookie of ['next-auth.session-token=%E0%A4%A', 'next-auth.session-token=garbage', 'next-auth.session-token.0=x']) {
    const response = await request.get(LIST, { headers: { cookie } });
    expect(response.status(), cookie).toBe(401);
  }
});
