import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes, type Route } from '@/lib/api/routes';
import { PORTAL_OPERATION_IDS } from '@/lib/api/portal-operations';
import { PORTAL_API_PREFIX } from '@/lib/portal/cookie';
import { bearer, signInWithPassword, tokenFor } from '../support/api';
import { issueLink, portalSession } from '../support/portal';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The partner portal's rough edges (issue 47), on a server of its own whose log is read: its
 * not-found page renders (404, its own words, nothing logged), its pages log nothing on a normal
 * walk, its API path serves only the operations its pages use, it names the tenant by its API
 * client's name, and signing out ends the session on the server.
 */
test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let api: APIRequestContext;
let tenantA: Record<string, string>;

/** What the server logged while `walk` ran. */
async function loggedDuring(walk: () => Promise<void>): Promise<string> {
  const before = server.logs().length;
  await walk();
  // Next writes a render's error when the render ends; one more request after it has been answered.
  await api.get('/api/health');
  return server.logs().slice(before);
}

/** An error line: Next's `⨯` render errors, a stack frame, or a structured entry at level error. */
const ERROR_LINE = /⨯|^\s+at |"level":"(error|fatal)"|Error: /m;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  server = await startServer({ dataDir: newDataDir('portal-edges') });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
});

test('a staff sign-in on a server without NEXTAUTH_URL (a supported set-up) logs no NEXTAUTH_URL warning', async () => {
  const before = server.logs().length;
  const staff = await request.newContext({ baseURL: server.url });
  expect(await signInWithPassword(staff, STAFF.webhooks.email, STAFF.webhooks.password)).toBeNull();
  expect((await staff.get('/api/auth/session')).status()).toBe(200);
  await staff.dispose();
  // The sign-in's own line is written once it is done; next-auth's warning would come with it.
  await expect.poll(() => server.logs().slice(before)).toContain('"event":"auth.sign_in"');
  await api.get('/api/health');
  const logged = server.logs().slice(before);
  expect(logged).not.toContain('NEXTAUTH_URL');
  expect(logged).not.toMatch(ERROR_LINE);
});

test('an address in the portal that is not the partner’s: its own 404 page, and nothing logged', async () => {
  const { headers } = await portalSession(server.url, await issueLink(api, tenantA));
  const logged = await loggedDuring(async () => {
    // Every full render of a portal page renders the segment's not-found boundary too.
    const home = await api.get('/portal', { headers });
    expect(home.status()).toBe(200);
    expect(await home.text()).toContain('Suas configurações de webhook');
    for (const id of [crypto.randomUUID(), WEBHOOK_IDS.b1, 'nao-e-um-id']) {
      const response = await api.get(`/portal/webhooks/${id}`, { headers: { ...headers, 'Accept-Language': 'pt-BR' } });
      expect(response.status(), id).toBe(404);
      const html = await response.text();
      expect(html, id).toContain('Nenhuma configuração sua tem este endereço.');
      expect(html, id).toContain('Voltar às suas configurações');
      expect(html, id).not.toContain('This page couldn’t load');
    }
  });
  expect(logged).not.toMatch(ERROR_LINE);
});

test('the portal’s API path serves the operations its pages use, and answers 404 for every other', async () => {
  const { headers } = await portalSession(server.url, await issueLink(api, tenantA));
  const served = new Set<string>(PORTAL_OPERATION_IDS);
  const refused: string[] = [];
  for (const [name, route] of Object.entries(routes) as [string, Route][]) {
    // /metrics is no API path: under /portal it is a page address, not found as any other.
    if (served.has(name) || !route.path.startsWith('/api/')) continue;
    const path = `${PORTAL_API_PREFIX}${apiPath(route, { id: WEBHOOK_IDS.a1, entregaId: crypto.randomUUID(), linkId: crypto.randomUUID(), sessaoId: crypto.randomUUID(), clientId: TENANT_A.clientId, token: crypto.randomUUID() })}`;
    const response = await api.fetch(path, { method: route.method, headers, ...(route.method === 'GET' ? {} : { data: {} }) });
    expect(response.status(), `${name} ${route.method} ${path}`).toBe(404);
    expect(response.headers()['content-type'], name).toContain('application/problem+json');
    refused.push(name);
  }
  // The public operations, above all, are not reachable through the portal.
  expect(refused).toEqual(
    expect.arrayContaining([
      'issueToken',
      'liveness',
      'readiness',
      'openApiDocument',
      'apiReference',
      'setPasswordWithLink',
      'publishEvent',
    ]),
  );
  // …while the portal's own still answer there.
  expect((await api.get(`${PORTAL_API_PREFIX}${apiPath(routes.listWebhookConfigurations)}`, { headers })).status()).toBe(200);
  const health = await api.get(`${PORTAL_API_PREFIX}${apiPath(routes.deliveryHealth, { id: WEBHOOK_IDS.a1 })}`, { headers });
  expect(health.status()).toBe(200);
});

test('the portal names its tenant by its API client’s name, usuarioId beside it', async () => {
  const { headers } = await portalSession(server.url, await issueLink(api, tenantA));
  const html = await (await api.get('/portal', { headers })).text();
  expect(html).toMatch(/data-testid="portal-tenant-name"[^>]*>Cliente e2e-cliente-a</);
  expect(html).toMatch(new RegExp(`data-testid="portal-tenant"[^>]*>${TENANT_A.usuarioId}<`));
});

test('signing out ends the session on the server: its cookie opens nothing after, and the trail says so', async () => {
  const session = await portalSession(server.url, await issueLink(api, tenantA));
  const list = `${PORTAL_API_PREFIX}${apiPath(routes.listWebhookConfigurations)}`;
  const close = `${PORTAL_API_PREFIX}${apiPath(routes.closePortalSession)}`;
  expect((await api.get(list, { headers: session.headers })).status()).toBe(200);
  // Only the portal's own page signs out: another origin is refused, and the session goes on.
  const foreign = await api.delete(close, { headers: { ...session.headers, Origin: 'https://outro.exemplo.com.br' } });
  expect(foreign.status()).toBe(403);
  expect((await api.get(list, { headers: session.headers })).status()).toBe(200);

  const closed = await api.delete(close, { headers: session.headers });
  expect(closed.status()).toBe(204);
  expect(closed.headers()['set-cookie']).toMatch(/portal-session=; Max-Age=0; Path=\/portal/);
  // A copy of the cookie kept anywhere opens nothing: the API, and the pages send it to the entry page.
  expect((await api.get(list, { headers: session.headers })).status()).toBe(401);
  const page = await api.get('/portal', { headers: session.headers, maxRedirects: 0 });
  expect(page.status()).toBe(307);
  expect(page.headers().location).toContain('/portal/entrar?encerrada=1');
  // Signing out again: nothing left to end, the same answer.
  expect((await api.delete(close, { headers: session.headers })).status()).toBe(204);

  const admin = await request.newContext({ baseURL: server.url });
  expect(await signInWithPassword(admin, STAFF.admin.email, STAFF.admin.password)).toBeNull();
  const trail = await admin.get(`${apiPath(routes.listAuditTrail)}?acao=portal.session_end&limite=500`);
  expect(trail.status()).toBe(200);
  const entries = (await trail.json()) as { acao: string; alvo: string }[];
  expect(entries.filter((entry) => entry.alvo === `portal-session:${session.id}`)).toHaveLength(1);
  await admin.dispose();
});
