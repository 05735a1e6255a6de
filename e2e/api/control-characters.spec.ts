import { expect, test } from '@playwright/test';
import { bearer, reservationBody, RESERVE_PATH, tokenFor } from '../support/api';
import { apiPath, routes } from '@/lib/api/routes';
import { slotOf, TENANT_A } from '../support/test-seed';

/**
 * NUL and other control characters in any text input: a 400 naming the field, never a 500 (NUL
 * made PostgreSQL fail) nor database text anywhere, the sign-in redirect included. Runs on SQLite
 * and on PostgreSQL (npm run test:e2e:pg).
 */
test('reservation text fields with NUL → 400 naming each field, and nothing reserved', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  const body = reservationBody({
    nrSeqAgenda: slotOf(935, 0),
    cdPessoaFisica: 935001,
    nmUsuario: 'portal\u0000',
    cdUsuarioConvenio: '00\u000012',
  });
  const response = await request.post(RESERVE_PATH, { headers: auth, data: body });
  expect(response.status()).toBe(400);
  const problem = await response.json();
  expect(
    problem.errors
      .filter((e: { code: string }) => e.code === 'controlCharacters')
      .map((e: { field: string }) => e.field)
      .sort(),
  ).toEqual(['cdUsuarioConvenio', 'nmUsuario']);
  const release = await request.post(RESERVE_PATH, {
    headers: auth,
    data: reservationBody({ nrSeqAgenda: slotOf(935, 0), ieOpcao: 'CR', tokenReservaCanc: 'AB\u0000CD' }),
  });
  expect(release.status()).toBe(400);
  expect((await release.json()).errors).toEqual([expect.objectContaining({ field: 'tokenReservaCanc', code: 'controlCharacters' })]);
  // The slot is still free: the refused requests reached no back-end.
  const reserved = await request.post(RESERVE_PATH, {
    headers: auth,
    data: reservationBody({ nrSeqAgenda: slotOf(935, 0), cdPessoaFisica: 935001 }),
  });
  expect((await reserved.json()).CODIGO_P).toBe('0');
});

test('a search term with NUL → 400 naming q', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  const response = await request.get(`${apiPath(routes.listWebhookConfigurations)}?q=a%00b`, { headers: auth });
  expect(response.status()).toBe(400);
  expect((await response.json()).errors).toEqual([expect.objectContaining({ field: 'q', code: 'controlCharacters' })]);
});

test('token endpoint: NUL in client_id or a repeated parameter → 400 invalid_request', async ({ request }) => {
  const nul = await request.post(apiPath(routes.issueToken), {
    form: { grant_type: 'client_credentials', client_id: `${TENANT_A.clientId}\u0000`, client_secret: TENANT_A.clientSecret },
  });
  expect(nul.status()).toBe(400);
  expect((await nul.json()).error).toBe('invalid_request');

  const repeated = await request.post(apiPath(routes.issueToken), {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: `grant_type=client_credentials&client_id=${TENANT_A.clientId}&client_id=outro&client_secret=${TENANT_A.clientSecret}`,
  });
  expect(repeated.status()).toBe(400);
  expect((await repeated.json()).error).toBe('invalid_request');
});

test('sign-in with NUL in the e-mail is an ordinary refusal: no database text in the redirect', async ({ request }) => {
  const { csrfToken } = await (await request.get('/api/auth/csrf')).json();
  const response = await request.post('/api/auth/callback/credentials', {
    form: { email: 'admin\u0000@e2e.exemplo.com.br', password: 'qualquer-coisa', csrfToken, json: 'true' },
    maxRedirects: 0,
  });
  const url = new URL((await response.json()).url);
  expect(url.searchParams.get('error')).toBe('CredentialsSignin');
  expect(url.toString().toLowerCase()).not.toContain('select');
});
