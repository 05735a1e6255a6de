import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes, type Route } from '@/lib/api/routes';
import { PORTAL_API_PREFIX } from '@/lib/portal/cookie';
import { PORTAL_OPERATION_IDS } from '@/lib/api/portal-operations';
import { bearer, signInWithPassword, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { issueLink, openSession, portalSession, tokenOf } from '../support/portal';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The partner portal's isolation (issue 30 §4), on a server of its own: a portal session of tenant
 * A walks EVERY operation of the API's route table (generated from the operations registry, so a
 * new operation is walked as soon as it exists) with tenant B's ids and tenant-naming bodies, and
 * gets 404 or 403, never a word of B's (404 for every operation the portal's path does not serve); a read-only session is refused every write and the
 * secret; the portal's cookie opens nothing on /api and no staff page; and the trail names the portal.
 */
const PUBLIC_OPERATIONS = new Set([
  'issueToken',
  'liveness',
  'readiness',
  'openApiDocument',
  'apiReference',
  'metrics',
  'setPasswordWithLink',
  'confirmContactEmail',
  'openPortalSession',
  'closePortalSession',
]);
/** What the portal's API path serves (lib/api/portal-operations.ts): any other operation is not found there. */
const PORTAL_SERVED = new Set<string>(PORTAL_OPERATION_IDS);

/** A body each write would accept, but for whose it is: so a refusal is about the tenant, never a malformed body. */
function bodyFor(name: string, b: { usedToken: string }): unknown {
  const bodies: Record<string, unknown> = {
    createWebhookConfiguration: {
      url: 'https://receptor-invasor.exemplo.com.br/h',
      usuarioId: TENANT_B.usuarioId,
      sistemaOrigem: TENANT_B.sistemaOrigem,
    },
    updateWebhookConfiguration: { url: 'https://receptor-invasor.exemplo.com.br/h' },
    recoverDeliveries: { desde: new Date(Date.now() - 3_600_000).toISOString() },
    issuePortalLink: { usuarioId: TENANT_B.usuarioId, sistemaOrigem: TENANT_B.sistemaOrigem },
    openPortalSession: { token: b.usedToken },
    publishEvent: { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_B.usuarioId, idEvento: 'invasor-1', dados: {} },
  };
  return bodies[name] ?? {};
}

type TenantB = { delivery: string; link: string; session: string; usedToken: string; url: string };

function pathFor(route: Route, b: TenantB): string {
  return apiPath(route, {
    id: WEBHOOK_IDS.b1,
    entregaId: b.delivery,
    linkId: b.link,
    sessaoId: b.session,
    clientId: TENANT_B.clientId,
    // A reservation token of nobody's: the portal serves no scheduling operation, so any answers 404.
    token: crypto.randomUUID(),
  });
}

/** What of B's could leak: its tenant, configuration, receiver, delivery, link and session. */
function leaks(text: string, b: TenantB): string[] {
  return [TENANT_B.usuarioId, WEBHOOK_IDS.b1, b.url, b.delivery, b.link, b.session, TENANT_B.clientId].filter((value) =>
    text.includes(value),
  );
}

async function call(api: APIRequestContext, route: Route, path: string, headers: Record<string, string>, data?: unknown) {
  return api.fetch(path, { method: route.method, headers, ...(route.method === 'GET' ? {} : { data: data ?? {} }) });
}

let server: RunningServer;
let drop: () => Promise<void>;
let api: APIRequestContext;
let b: TenantB;
let tenantA: Record<string, string>;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  const database = await privateDatabase('portal');
  drop = database.drop;
  server = await startServer({ dataDir: newDataDir('portal'), env: database.env });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
  const tenantB = bearer(await tokenFor(api, TENANT_B));
  const testEvent = await api.post(apiPath(routes.sendTestEvent, { id: WEBHOOK_IDS.b1 }), { headers: tenantB });
  expect(testEvent.status()).toBe(202);
  const used = await issueLink(api, tenantB);
  const session = await portalSession(server.url, used);
  const unopened = await issueLink(api, tenantB);
  const config = (await (await api.get(apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS.b1 }), { headers: tenantB })).json()) as {
    url: string;
  };
  b = {
    delivery: ((await testEvent.json()) as { id: string }).id,
    link: unopened.id,
    session: session.id,
    usedToken: tokenOf(used),
    url: config.url,
  };
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await drop?.();
});

test('a portal session of tenant A gets 404 or 403 from every operation with tenant B’s ids, and nothing of B’s', async () => {
  const a = await portalSession(server.url, await issueLink(api, tenantA));
  const walked: string[] = [];
  for (const [name, route] of Object.entries(routes) as [string, Route][]) {
    // Signing out ends A's own session (portal-edges.spec.ts): the walk needs it.
    if (name === 'closePortalSession') continue;
    const path = `${PORTAL_API_PREFIX}${pathFor(route, b)}`;
    const response = await call(api, route, path, a.headers, bodyFor(name, b));
    const text = await response.text();
    expect(leaks(text, b), `${name} ${route.method} ${path}`).toEqual([]);
    if (!PORTAL_SERVED.has(name)) {
      // Not the portal's: not served on its path at all.
      expect(response.status(), `${name} ${route.method} ${path}`).toBe(404);
      walked.push(name);
      continue;
    }
    if (PUBLIC_OPERATIONS.has(name)) {
      // Anyone's operations: a used link of B's opens nothing.
      if (name === 'openPortalSession') expect(response.status()).toBe(404);
      continue;
    }
    // Lists without ids answer A's own (or are refused); everything that names B's or writes is refused or not found.
    const names = /\{\w+\}/.test(route.path) || route.method !== 'GET';
    const allowed = names ? [403, 404] : [200, 403];
    expect(allowed, `${name} ${route.method} ${path} answered ${response.status()}: ${text.slice(0, 200)}`).toContain(response.status());
    walked.push(name);
  }
  // Staff operations are not served on the portal's path at all.
  for (const staffOnly of [
    'listAuditTrail',
    'listStaff',
    'createApiClient',
    'publishEvent',
    'listSlots',
    'listAgendas',
    'changeOwnPassword',
    'issuePortalLink',
  ]) {
    const route = (routes as Record<string, Route>)[staffOnly]!;
    const response = await call(api, route, `${PORTAL_API_PREFIX}${pathFor(route, b)}`, a.headers, bodyFor(staffOnly, b));
    expect(response.status(), staffOnly).toBe(404);
  }
  expect(walked.length).toBeGreaterThanOrEqual(Object.keys(routes).length - PUBLIC_OPERATIONS.size);
  // B's own session is untouched by all this: B still sees its configuration through its portal.
  const bConfig = await api.get(`${PORTAL_API_PREFIX}${apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS.b1 })}`, {
    headers: (await portalSession(server.url, await issueLink(api, bearer(await tokenFor(api, TENANT_B))))).headers,
  });
  expect(bConfig.status()).toBe(200);
  expect(((await bConfig.json()) as { url: string }).url).toBe(b.url);
});

test('a read-only session reads its own tenant and is refused every write and the secret', async () => {
  const ro = await portalSession(server.url, await issueLink(api, tenantA, { somenteLeitura: true }));
  expect(ro.somenteLeitura).toBe(true);
  const own = await api.get(`${PORTAL_API_PREFIX}${apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS.a1 })}`, {
    headers: ro.headers,
  });
  expect(own.status()).toBe(200);
  const aDelivery = await api.post(apiPath(routes.sendTestEvent, { id: WEBHOOK_IDS.a1 }), { headers: tenantA });
  const entregaId = ((await aDelivery.json()) as { id: string }).id;
  const refused: string[] = [];
  for (const [name, route] of Object.entries(routes) as [string, Route][]) {
    if (PUBLIC_OPERATIONS.has(name) || !PORTAL_SERVED.has(name)) continue;
    if (route.method === 'GET' && name !== 'getWebhookSecret') continue;
    const path = `${PORTAL_API_PREFIX}${apiPath(route, { id: WEBHOOK_IDS.a1, entregaId, linkId: crypto.randomUUID(), sessaoId: ro.id, clientId: TENANT_A.clientId, token: crypto.randomUUID() })}`;
    const response = await call(api, route, path, ro.headers, bodyFor(name, b));
    expect(response.status(), `${name} ${route.method} ${path}`).toBe(403);
    refused.push(name);
  }
  expect(refused).toEqual(
    expect.arrayContaining([
      'updateWebhookConfiguration',
      'sendTestEvent',
      'redeliver',
      'recoverDeliveries',
      'rotateWebhookSecret',
      'getWebhookSecret',
      'deleteWebhookConfiguration',
    ]),
  );
  // Nothing changed: A's configuration is as it was.
  const after = await api.get(apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), { headers: tenantA });
  expect(((await after.json()) as { url: string }).url).toBe(((await own.json()) as { url: string }).url);
});

test('a read-only session sees custom header names, never their values, in the configuration, the list, the delivery log and the page', async () => {
  test.setTimeout(60_000);
  const id = WEBHOOK_IDS.a3;
  const value = `valor-${crypto.randomUUID()}`;
  const put = await api.put(apiPath(routes.getWebhookConfiguration, { id }), {
    headers: tenantA,
    data: { headers: [{ chave: 'X-Parceiro-Ref', valor: value }] },
  });
  expect(put.status()).toBe(200);
  const testEvent = await api.post(apiPath(routes.sendTestEvent, { id }), { headers: tenantA });
  const entregaId = ((await testEvent.json()) as { id: string }).id;
  const detailPath = apiPath(routes.getDelivery, { id, entregaId });
  // The attempt (to a receiver that does not exist) records the headers it sent.
  await expect
    .poll(
      async () =>
        ((await (await api.get(detailPath, { headers: tenantA })).json()) as { tentativasDetalhadas: unknown[] }).tentativasDetalhadas
          .length,
      {
        timeout: 20_000,
      },
    )
    .toBeGreaterThan(0);
  const readOnly = await portalSession(server.url, await issueLink(api, tenantA, { somenteLeitura: true }));
  const full = await portalSession(server.url, await issueLink(api, tenantA));
  const places = [
    `${PORTAL_API_PREFIX}${apiPath(routes.getWebhookConfiguration, { id })}`,
    `${PORTAL_API_PREFIX}${apiPath(routes.listWebhookConfigurations)}`,
    `${PORTAL_API_PREFIX}${detailPath}`,
    `/portal/webhooks/${id}`,
  ];
  for (const place of places) {
    const seen = await api.get(place, { headers: readOnly.headers });
    expect(seen.status(), place).toBe(200);
    const text = await seen.text();
    expect(text, place).toContain('X-Parceiro-Ref');
    expect(text.includes(value), `${place} shows the value to a read-only session`).toBe(false);
    // A full-access session of the same tenant reads it, as the tenant's client does.
    expect(await (await api.get(place, { headers: full.headers })).text(), place).toContain(value);
  }
});

test('a link opens one session once; the portal cookie opens nothing on /api nor any staff page; a revoked session stops', async () => {
  const link = await issueLink(api, tenantA);
  const first = await openSession(server.url, tokenOf(link));
  expect(first.status).toBe(201);
  expect(first.setCookie).toMatch(/Path=\/portal/);
  expect(first.setCookie).toMatch(/HttpOnly/i);
  expect(first.setCookie).toMatch(/Secure/i);
  expect(first.setCookie).toMatch(/SameSite=None/i);
  expect(first.setCookie).toMatch(/Partitioned/i);
  expect((await openSession(server.url, tokenOf(link))).status).toBe(404);
  // Another site's page cannot open a session with a stolen link's token.
  const stolen = await issueLink(api, tenantA);
  expect((await openSession(server.url, tokenOf(stolen), 'https://atacante.exemplo')).status).toBe(403);

  const headers = { Cookie: first.cookie!, Origin: server.url };
  expect((await api.get(apiPath(routes.listWebhookConfigurations), { headers })).status()).toBe(401);
  for (const page of ['/', '/webhooks', `/webhooks/${WEBHOOK_IDS.a1}`, '/admin/equipe', '/scheduling', '/conta']) {
    const response = await api.get(page, { headers, maxRedirects: 0 });
    expect(response.status(), page).toBe(307);
    expect(response.headers().location, page).toContain('/sign-in');
  }
  // Its pages show its own tenant alone: B's configuration is not found (a real 404), and nothing of B's is on either page.
  const home = await api.get('/portal', { headers });
  expect(home.status()).toBe(200);
  expect(await home.text()).toContain(TENANT_A.usuarioId);
  const other = await api.get(`/portal/webhooks/${WEBHOOK_IDS.b1}`, { headers });
  expect(other.status()).toBe(404);
  for (const page of [await home.text(), await other.text()])
    expect(leaks(page, b).filter((value) => value !== WEBHOOK_IDS.b1)).toEqual([]);
  // The session works, until staff revoke it; then its next request is refused.
  const configs = `${PORTAL_API_PREFIX}${apiPath(routes.listWebhookConfigurations)}`;
  expect((await api.get(configs, { headers })).status()).toBe(200);
  const sessionId = first.body!.id;
  const admin = await request.newContext({ baseURL: server.url });
  expect(await signInWithPassword(admin, STAFF.webhooks.email, STAFF.webhooks.password)).toBeNull();
  const access = await admin.get(`${apiPath(routes.listPortalAccess)}?usuarioId=${TENANT_A.usuarioId}`);
  expect(access.status()).toBe(200);
  expect(((await access.json()) as { sessoes: { id: string }[] }).sessoes.map((s) => s.id)).toContain(sessionId);
  const revoked = await admin.delete(apiPath(routes.revokePortalSession, { sessaoId: sessionId }), { headers: { Origin: server.url } });
  expect(revoked.status()).toBe(204);
  expect((await api.get(configs, { headers })).status()).toBe(401);
  // A link revoked before it is opened opens nothing.
  const unopened = await issueLink(api, tenantA);
  expect(
    (await admin.delete(apiPath(routes.revokePortalLink, { linkId: unopened.id }), { headers: { Origin: server.url } })).status(),
  ).toBe(204);
  expect((await openSession(server.url, tokenOf(unopened))).status).toBe(404);
  await admin.dispose();
});

test('the audit trail names the portal and the tenant for the issue, the opening and each action', async () => {
  const link = await issueLink(api, tenantA);
  const session = await portalSession(server.url, link);
  const sent = await api.post(`${PORTAL_API_PREFIX}${apiPath(routes.sendTestEvent, { id: WEBHOOK_IDS.a2 })}`, { headers: session.headers });
  expect(sent.status()).toBe(202);
  const admin = await request.newContext({ baseURL: server.url });
  expect(await signInWithPassword(admin, STAFF.admin.email, STAFF.admin.password)).toBeNull();
  const trail = await admin.get(`${apiPath(routes.listAuditTrail)}?ator=${encodeURIComponent(`portal:${TENANT_A.usuarioId}`)}&limite=500`);
  expect(trail.status()).toBe(200);
  const entries = (await trail.json()) as { acao: string; alvo: string; depois: Record<string, unknown> | null }[];
  expect(entries).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ acao: 'portal.link_issue', alvo: `portal-link:${link.id}` }),
      expect.objectContaining({ acao: 'portal.session_open', alvo: `portal-session:${session.id}` }),
      expect.objectContaining({
        acao: 'portal.request',
        alvo: `webhook:${WEBHOOK_IDS.a2}`,
        depois: expect.objectContaining({ operacao: 'sendTestEvent', sessao: session.id }),
      }),
    ]),
  );
  const issue = entries.find((entry) => entry.alvo === `portal-link:${link.id}`);
  expect(issue?.depois).toMatchObject({ emitidoPor: TENANT_A.clientId });
  // The token is nowhere in the trail.
  expect(JSON.stringify(entries)).not.toContain(tokenOf(link));
  await admin.dispose();
});

test('the portal’s pages: framed by no one unless allowed, the console’s never; without a session, the entry page, never the staff sign-in', async () => {
  const entry = await api.get('/portal/entrar');
  expect(entry.status()).toBe(200);
  // No PORTAL_FRAME_ANCESTORS on this server: no page may frame the portal either.
  expect(entry.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  const anonymous = await api.get('/portal', { maxRedirects: 0 });
  expect(anonymous.status()).toBe(307);
  expect(anonymous.headers().location).toMatch(/\/portal\/entrar\?encerrada=1$/);
  expect((await api.get(`${PORTAL_API_PREFIX}${apiPath(routes.listWebhookConfigurations)}`)).status()).toBe(401);
  // A console session or an API token sent to the portal's path is not a portal session.
  expect((await api.get(`${PORTAL_API_PREFIX}${apiPath(routes.listWebhookConfigurations)}`, { headers: tenantA })).status()).toBe(401);
});
