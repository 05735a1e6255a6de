import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, tokenFor } from '../support/api';
import { auditRows, staffSessionCookie } from '../support/server-db';
import { STAFF } from '../support/test-seed';

/** API clients managed by staff admins (issue 11 §2): create, rotate, revoke; secrets shown once. */
async function admin(baseURL: string | undefined) {
  return { cookie: await staffSessionCookie(STAFF.admin.email), origin: new URL(baseURL!).origin };
}

async function token(request: APIRequestContext, clientId: string, clientSecret: string) {
  return request.post(apiPath(routes.issueToken), {
    form: { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret },
  });
}

const NEW_CLIENT = {
  clientId: 'e2e-novo-parceiro',
  nome: 'Novo Parceiro',
  usuarioId: '77777777-7777-4777-8777-777777777777',
  sistemaOrigem: 12,
  escopos: ['scheduling'],
};

test('only staff admins manage API clients', async ({ request, baseURL }) => {
  const list = apiPath(routes.listApiClients);
  const webhooksStaff = { cookie: await staffSessionCookie(STAFF.webhooks.email) };
  expect((await request.get(list, { headers: webhooksStaff })).status()).toBe(403);
  expect((await request.get(list, { headers: bearer(await tokenFor(request)) })).status()).toBe(403);
  expect((await request.get(list, { headers: await admin(baseURL) })).status()).toBe(200);
});

test('create (secret once), token with it, rotate with overlap, revoke: tokens stop, audited without secrets', async ({
  request,
  baseURL,
}) => {
  const headers = await admin(baseURL);
  const bad = await request.post(apiPath(routes.createApiClient), { headers, data: { clientId: 'X Y', escopos: [] } });
  expect(bad.status()).toBe(400);
  const badErrors = ((await bad.json()) as { errors: { field: string; code: string }[] }).errors;
  expect(badErrors.map((error) => error.field).sort()).toEqual(['clientId', 'escopos', 'nome', 'sistemaOrigem', 'usuarioId']);
  // No scope at all is refused with its own reason, not as a list size.
  expect(badErrors.find((error) => error.field === 'escopos')?.code).toBe('scopesRequired');

  const created = await request.post(apiPath(routes.createApiClient), { headers, data: NEW_CLIENT });
  expect(created.status()).toBe(201);
  const { clientSecret, ...view } = (await created.json()) as { clientSecret: string; ultimoTokenEm: string | null };
  expect(clientSecret).toMatch(/^ics_[A-Za-z0-9_-]{43}$/);
  expect(view).toMatchObject({ ...NEW_CLIENT, revogadoEm: null, ultimoTokenEm: null });
  expect((await request.post(apiPath(routes.createApiClient), { headers, data: NEW_CLIENT })).status()).toBe(409);

  const first = await token(request, NEW_CLIENT.clientId, clientSecret);
  expect(first.status()).toBe(200);
  const { access_token: accessToken, scope } = (await first.json()) as { access_token: string; scope: string };
  expect(scope).toBe('scheduling');
  const listed = (await (await request.get(apiPath(routes.listApiClients), { headers })).json()) as Record<string, unknown>[];
  const mine = listed.find((client) => client.clientId === NEW_CLIENT.clientId)!;
  expect(mine.ultimoTokenEm).toEqual(expect.any(String));
  expect(JSON.stringify(listed)).not.toContain(clientSecret);

  const rotated = await request.post(apiPath(routes.rotateApiClientSecret, { clientId: NEW_CLIENT.clientId }), { headers });
  const { clientSecret: newSecret } = (await rotated.json()) as { clientSecret: string };
  expect(newSecret).not.toBe(clientSecret);
  expect((await token(request, NEW_CLIENT.clientId, newSecret)).status()).toBe(200);
  expect((await token(request, NEW_CLIENT.clientId, clientSecret)).status()).toBe(200); // the overlap

  const slots = apiPath(routes.listFreeSlots);
  expect((await request.get(slots, { headers: bearer(accessToken) })).status()).toBe(200);
  const revoked = await request.post(apiPath(routes.revokeApiClient, { clientId: NEW_CLIENT.clientId }), { headers });
  expect(revoked.status()).toBe(200);
  expect(((await revoked.json()) as { revogadoEm: string | null }).revogadoEm).toEqual(expect.any(String));
  expect((await request.get(slots, { headers: bearer(accessToken) })).status()).toBe(401);
  expect((await token(request, NEW_CLIENT.clientId, newSecret)).status()).toBe(401);

  const trail = await auditRows(`client:${NEW_CLIENT.clientId}`);
  expect(trail.map((row) => row.action)).toEqual(['client.create', 'client.rotate', 'client.revoke']);
  for (const secret of [clientSecret, newSecret]) expect(JSON.stringify(trail)).not.toContain(secret);
});
