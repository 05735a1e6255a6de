import { expect, test } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, tokenFor } from '../support/api';
import { auditRows, staffSessionCookie } from '../support/server-db';
import { STAFF, TENANT_A, TENANT_B } from '../support/test-seed';

/** Creating and deleting webhook configurations (issue 11 §3), by API clients and staff. */
const LIST = apiPath(routes.listWebhookConfigurations);
const path = (id: string) => apiPath(routes.getWebhookConfiguration, { id });

test('an API client creates a configuration for its own tenant: 201, Location, events off by default, audited', async ({ request }) => {
  const auth = bearer(await tokenFor(request, TENANT_A));
  const created = await request.post(LIST, {
    headers: auth,
    data: { url: 'https://novo.receptor-a.exemplo.com.br/eventos', eventoPropostaCancelada: true },
  });
  expect(created.status()).toBe(201);
  const body = (await created.json()) as { id: string };
  expect(created.headers().location).toBe(path(body.id));
  expect(created.headers().etag).toBeTruthy();
  expect(body).toMatchObject({
    usuarioId: TENANT_A.usuarioId,
    sistemaOrigem: TENANT_A.sistemaOrigem,
    clientId: TENANT_A.clientId,
    url: 'https://novo.receptor-a.exemplo.com.br/eventos',
    headers: [],
    eventoAvaliacaoSaudeAprovada: false,
    eventoPropostaCancelada: true,
    ativo: true,
  });
  expect((await request.get(path(body.id), { headers: auth })).status()).toBe(200);
  expect(await auditRows(`webhook:${body.id}`, 'webhook.create')).toHaveLength(1);
  // Its own signing secret, like every configuration.
  const secret = await request.get(apiPath(routes.getWebhookSecret, { id: body.id }), { headers: auth });
  expect(((await secret.json()) as { segredo: string }).segredo).toMatch(/^whsec_/);
});

test('a configuration for another tenant, or without url, is refused', async ({ request }) => {
  const auth = bearer(await tokenFor(request, TENANT_A));
  const foreign = await request.post(LIST, { headers: auth, data: { url: 'https://x.exemplo.com.br/', usuarioId: TENANT_B.usuarioId } });
  expect(foreign.status()).toBe(403);
  const noUrl = await request.post(LIST, { headers: auth, data: { eventoPropostaCancelada: true } });
  expect(noUrl.status()).toBe(400);
  expect(((await noUrl.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toEqual(['url']);
  const privateTarget = await request.post(LIST, { headers: auth, data: { url: 'https://10.0.0.1/' } });
  expect(((await privateTarget.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('urlPrivateTarget');
});

/** A tenant no other spec lists: configurations created here must not show up in their lists. */
const NEW_TENANT = { usuarioId: '55555555-5555-4555-8555-555555555555', sistemaOrigem: 5 };

test('staff create for any tenant, naming it', async ({ request, baseURL }) => {
  const staff = { cookie: await staffSessionCookie(STAFF.webhooks.email), origin: new URL(baseURL!).origin };
  const unnamed = await request.post(LIST, { headers: staff, data: { url: 'https://staff.receptor.exemplo.com.br/' } });
  expect(unnamed.status()).toBe(400);
  expect(((await unnamed.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toEqual(['usuarioId']);
  const created = await request.post(LIST, {
    headers: staff,
    data: { url: 'https://staff.receptor.exemplo.com.br/', ...NEW_TENANT },
  });
  expect(created.status()).toBe(201);
  const { id, usuarioId } = (await created.json()) as { id: string; usuarioId: string };
  expect(usuarioId).toBe(NEW_TENANT.usuarioId);
  // Staff see it; a client of another tenant does not.
  expect((await request.get(path(id), { headers: staff })).status()).toBe(200);
  expect((await request.get(path(id), { headers: bearer(await tokenFor(request, TENANT_A)) })).status()).toBe(404);
  expect((await request.delete(path(id), { headers: staff })).status()).toBe(204);
});

test('DELETE: 204 for the owner, 404 for anyone else and afterwards', async ({ request }) => {
  const auth = bearer(await tokenFor(request, TENANT_A));
  const created = await request.post(LIST, { headers: auth, data: { url: 'https://apagar.receptor-a.exemplo.com.br/' } });
  const { id } = (await created.json()) as { id: string };
  const other = await request.delete(path(id), { headers: bearer(await tokenFor(request, TENANT_B)) });
  expect(other.status()).toBe(404);
  expect((await request.delete(path(id), { headers: auth })).status()).toBe(204);
  expect((await request.get(path(id), { headers: auth })).status()).toBe(404);
  expect((await request.delete(path(id), { headers: auth })).status()).toBe(404);
  const [deleted] = await auditRows(`webhook:${id}`, 'webhook.delete');
  expect(deleted).toMatchObject({
    outcome: 'deleted',
    before: expect.objectContaining({ url: 'https://apagar.receptor-a.exemplo.com.br/' }),
  });
});
