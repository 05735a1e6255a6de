import { expect, test, type APIRequestContext } from '@playwright/test';
import { STAFF, THROTTLE_CLIENT } from '../support/test-seed';

/**
 * Brute-force limits through the real server and database: attempts are counted before the secret
 * is checked, so parallel guesses cannot outrun the limit (5 per e-mail and address for sign-in,
 * 10 per client_id and address for tokens; lib/auth/throttle-policy.ts). The addresses here come
 * through X-Forwarded-For from the trusted proxy 127.0.0.1 (e2e/support/server.ts); direct callers
 * that forge the header are in client-address.spec.ts.
 */
async function signInAttempt(api: APIRequestContext, csrfToken: string, email: string, password: string): Promise<string | null> {
  const response = await api.post('/api/auth/callback/credentials', {
    form: { email, password, csrfToken, json: 'true' },
    maxRedirects: 0,
  });
  // next-auth answers (200, or 401 for a refusal) the URL it would redirect to: ?error=CredentialsSignin (wrong), ?error=locked, or none.
  return new URL((await response.json()).url).searchParams.get('error');
}

test('40 parallel wrong passwords: only 5 are checked, the rest and then the right password are locked', async ({
  playwright,
  baseURL,
}) => {
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.41' } });
  try {
    const { csrfToken } = await (await api.get('/api/auth/csrf')).json();
    const account = STAFF.parallelLockout;
    const errors = await Promise.all(Array.from({ length: 40 }, (_, i) => signInAttempt(api, csrfToken, account.email, `errada-${i}`)));
    expect(errors.filter((error) => error === 'CredentialsSignin')).toHaveLength(5);
    expect(errors.filter((error) => error === 'locked')).toHaveLength(35);
    expect(await signInAttempt(api, csrfToken, account.email, account.password)).toBe('locked');
  } finally {
    await api.dispose();
  }
});

test('token endpoint: wrong secrets lock the client_id at that address (429 invalid_client, Retry-After), not elsewhere', async ({
  request,
}) => {
  const token = (secret: string, address = '198.51.100.7') =>
    request.post('/api/v1/auth/token', {
      headers: { 'X-Forwarded-For': address },
      form: { grant_type: 'client_credentials', client_id: THROTTLE_CLIENT.clientId, client_secret: secret },
    });
  // A success clears the counters: a client that mistyped once is not a step closer to a lock.
  expect((await token('errado-0')).status()).toBe(401);
  expect((await token(THROTTLE_CLIENT.clientSecret)).status()).toBe(200);

  const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => token(`errado-${i}`)));
  expect(answers.filter((response) => response.status() === 401)).toHaveLength(10);
  const locked = answers.filter((response) => response.status() === 429);
  expect(locked).toHaveLength(15);
  expect(await locked[0]!.json()).toEqual({ error: 'invalid_client', error_description: 'Too many failed attempts; retry later.' });
  expect(Number(locked[0]!.headers()['retry-after'])).toBeGreaterThan(0);
  expect(locked[0]!.headers()['cache-control']).toContain('no-store');

  // The right secret is refused while locked, without being checked.
  expect((await token(THROTTLE_CLIENT.clientSecret)).status()).toBe(429);

  // No counter of the client_id alone: 60 failures from ever-new addresses lock none of them, and
  // the client at its own address is never locked out by someone else's guesses.
  const spread = await Promise.all(Array.from({ length: 60 }, (_, i) => token(`errado-x${i}`, `192.0.2.${i + 1}`)));
  expect(spread.map((response) => response.status())).toEqual(Array.from({ length: 60 }, () => 401));
  expect((await token(THROTTLE_CLIENT.clientSecret, '192.0.2.200')).status()).toBe(200);
});

test('an address guessing at many client_ids is throttled on every attempt; other addresses are not', async ({ request }) => {
  const token = (clientId: string, secret: string, address: string) =>
    request.post('/api/v1/auth/token', {
      headers: { 'X-Forwarded-For': address },
      form: { grant_type: 'client_credentials', client_id: clientId, client_secret: secret },
    });
  const flood = [];
  for (let i = 0; i < 55; i++) flood.push((await token(`desconhecido-${i}`, 'x'.repeat(20), '198.51.100.99')).status());
  expect(flood.filter((status) => status === 401)).toHaveLength(50);
  expect(flood.slice(50)).toEqual([429, 429, 429, 429, 429]);
  // Over its limit, the address gets 429 even with a right secret; the client elsewhere gets its token.
  const refused = await token(THROTTLE_CLIENT.clientId, THROTTLE_CLIENT.clientSecret, '198.51.100.99');
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(800);
  expect((await token(THROTTLE_CLIENT.clientId, THROTTLE_CLIENT.clientSecret, '198.51.100.100')).status()).toBe(200);
});

test('an IPv6 client is counted by its /64: a fresh address per guess spreads nothing; another /64 is not locked', async ({ request }) => {
  const token = (secret: string, address: string) =>
    request.post('/api/v1/auth/token', {
      headers: { 'X-Forwarded-For': address },
      form: { grant_type: 'client_credentials', client_id: THROTTLE_CLIENT.clientId, client_secret: secret },
    });
  const statuses = [];
  for (let i = 1; i <= 12; i++) statuses.push((await token(`errado-${i}`, `2001:db8:7:1:${i.toString(16)}::${i}`)).status());
  expect(statuses).toEqual([...Array.from({ length: 10 }, () => 401), 429, 429]);
  expect((await token(THROTTLE_CLIENT.clientSecret, '2001:db8:7:1:ffff:ffff:ffff:fffe')).status()).toBe(429);
  expect((await token(THROTTLE_CLIENT.clientSecret, '2001:db8:7:2::1')).status()).toBe(200);
});

test('console sign-in counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one', async ({ playwright, baseURL }) => {
  const account = STAFF.webhooks;
  const signIn = async (password: string, address: string) => {
    const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': address } });
    try {
      const { csrfToken } = await (await api.get('/api/auth/csrf')).json();
      return await signInAttempt(api, csrfToken, account.email, password);
    } finally {
      await api.dispose();
    }
  };
  const errors = [];
  for (let i = 1; i <= 6; i++) errors.push(await signIn(`errada-${i}`, `2001:db8:7:3::${i}:${i}`));
  expect(errors).toEqual([...Array.from({ length: 5 }, () => 'CredentialsSignin'), 'locked']);
  expect(await signIn(account.password, '2001:db8:7:3:aaaa::1')).toBe('locked');
  expect(await signIn(account.password, '2001:db8:7:4::1')).toBeNull();

  // 198.51.100.201 and ::ffff:c633:64c9 are one client.
  for (let i = 1; i <= 5; i++) expect(await signIn(`errada-${i}`, '198.51.100.201')).toBe('CredentialsSignin');
  expect(await signIn(account.password, '::ffff:c633:64c9')).toBe('locked');
});
