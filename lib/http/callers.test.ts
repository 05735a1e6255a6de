import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClientPrincipal, Principal, StaffPrincipal } from '@/lib/auth/principal';
import { callersOf } from '@/lib/api/callers';
import { listAudit } from '@/lib/audit/store';
import { closeDb, getDb } from '@/lib/db/handle';
import { PORTAL_COOKIE } from '@/lib/portal/cookie';
import { issuePortalLink, openPortalSession } from '@/lib/portal/service';
import { markPortalRequest } from '@/lib/portal/surface';
import { prepareDatabase } from '@/lib/seed/prepare';
import { resetEnv } from '@/lib/testing/hooks';
import { answer } from './answers';
import type { AfterPolicy, Authenticator, Call, Callers } from './callers';
import { problems } from './errors';
import { apiRoute } from './route';

/**
 * The authenticator chain and its policies through the real route wrapper (route.ts): which
 * authenticator decides, what a refusal answers, and the portal's own read-only rule and audit
 * trail with real portal sessions in a real database.
 */
const change = {
  method: 'POST',
  path: '/api/v1/sonda',
  capability: 'webhooks',
  responses: { 200: answer.empty('Done.') },
} as const;
const read = { ...change, method: 'GET' } as const;
const secretRead = { ...read, sensitive: true } as const;

const staff: StaffPrincipal = { kind: 'staff', userId: 'u-1', email: 'ana@hospital.example', name: 'Ana', roles: ['webhooks'] };
const client: ApiClientPrincipal = {
  kind: 'api-client',
  issuer: 'embedded',
  clientId: 'parceiro',
  usuarioId: 'tenant-a',
  sistemaOrigem: 1,
  scopes: ['webhooks'],
};

/** An authenticator that applies where the request has `header`, and stands for `principal` (or no one). */
function byHeader(header: string, principal: Principal | undefined, credential: Authenticator['credential'] = 'header'): Authenticator {
  return {
    name: header,
    credential,
    applies: (request) => request.headers.has(header),
    authenticate: () => Promise.resolve(principal),
  };
}

/** The route answering with whom it saw, under `callers`. */
function routeUnder(callers: Callers, operation: typeof change | typeof read | typeof secretRead = change) {
  const seen: Principal[] = [];
  const route = apiRoute(
    operation,
    ({ principal }) => {
      seen.push(principal);
      return Promise.resolve({ status: 200 as const });
    },
    () => callers,
    'sonda',
  );
  return { route, seen };
}

const request = (headers: Record<string, string> = {}, method = 'POST') =>
  new Request('http://localhost/api/v1/sonda', { method, headers: { host: 'localhost', ...headers } });

async function problemOf(reply: { status: number; text: string | null }) {
  return { status: reply.status, ...(JSON.parse(reply.text ?? '{}') as { detail?: string; type?: string }) };
}

describe('the authenticator chain', () => {
  it('asks the authenticators in order: the first that applies decides, even when a later one would too', async () => {
    const { route, seen } = routeUnder({ authenticators: [byHeader('x-a', client), byHeader('x-b', staff)] });
    expect((await route(request({ 'x-a': '1', 'x-b': '1' }), {})).status).toBe(200);
    expect(seen).toEqual([client]);
    expect((await route(request({ 'x-b': '1' }), {})).status).toBe(200);
    expect(seen).toEqual([client, staff]);
  });

  it('answers 401 when none applies, or when the one that applies stands for no one, without trying the next', async () => {
    const { route, seen } = routeUnder({ authenticators: [byHeader('x-a', undefined), byHeader('x-b', staff)] });
    expect(await problemOf(await route(request(), {}))).toMatchObject({ status: 401, type: expect.stringContaining('unauthorized') });
    expect((await route(request({ 'x-a': '1', 'x-b': '1' }), {})).status).toBe(401);
    expect(seen).toEqual([]);
  });

  it('answers an authenticator’s own refusal as it threw it', async () => {
    const refusing: Authenticator = { ...byHeader('x-a', client), authenticate: () => Promise.reject(problems.invalidToken()) };
    const reply = await routeUnder({ authenticators: [refusing] }).route(request({ 'x-a': '1' }), {});
    expect(reply.status).toBe(401);
    expect(reply.headers).toContainEqual(['www-authenticate', expect.stringContaining('invalid_token')]);
  });

  it('refuses a cookie’s change from another site, and never a header’s', async () => {
    const crossSite = { 'x-a': '1', origin: 'https://elsewhere.example' };
    const cookie = routeUnder({ authenticators: [byHeader('x-a', staff, 'cookie')] });
    expect(await problemOf(await cookie.route(request(crossSite), {}))).toMatchObject({ status: 403 });
    expect((await cookie.route(request(crossSite, 'GET'), {})).status).toBe(200);
    expect((await cookie.route(request({ 'x-a': '1', origin: 'http://localhost' }), {})).status).toBe(200);
    const header = routeUnder({ authenticators: [byHeader('x-a', staff)] });
    expect((await header.route(request(crossSite), {})).status).toBe(200);
  });

  it('runs before-policies after the capability check and lets them refuse; after-policies see every authenticated answer', async () => {
    const calls: [Call, number][] = [];
    const after: AfterPolicy = (call, status) => Promise.resolve(void calls.push([call, status]));
    const callers: Callers = {
      authenticators: [byHeader('x-a', client), byHeader('x-b', { ...staff, roles: ['scheduling'] })],
      before: [
        ({ changesOrReadsSecret }) => {
          if (changesOrReadsSecret) throw problems.forbidden('No changes today.');
        },
      ],
      after: [after],
    };
    const { route, seen } = routeUnder(callers);
    expect(await problemOf(await route(request({ 'x-a': '1' }), {}))).toMatchObject({ status: 403, detail: 'No changes today.' });
    // The capability is checked first: a role without it is refused as such, before any policy.
    expect(await problemOf(await route(request({ 'x-b': '1' }), {}))).toMatchObject({
      status: 403,
      detail: 'Your role does not allow this operation.',
    });
    expect(await routeUnder(callers, read).route(request({ 'x-a': '1' }, 'GET'), {})).toMatchObject({ status: 200 });
    expect(await routeUnder(callers, secretRead).route(request({ 'x-a': '1' }, 'GET'), {})).toMatchObject({ status: 403 });
    // Nobody authenticated: no call for the after-policies.
    await route(request(), {});
    expect(seen).toEqual([]);
    expect(calls.map(([call, status]) => [call.operationId, call.request.method, call.changesOrReadsSecret, status])).toEqual([
      ['sonda', 'POST', true, 403],
      ['sonda', 'POST', true, 403],
      ['sonda', 'GET', false, 200],
      ['sonda', 'GET', true, 403],
    ]);
  });
});

describe('the portal’s callers, as the composition root wires them (lib/api/callers.ts)', () => {
  const staffAdmin: StaffPrincipal = { ...staff, roles: ['admin'] };

  beforeAll(async () => {
    process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-callers-'));
    delete process.env.DATABASE_URL;
    resetEnv();
    await prepareDatabase(await getDb());
  });

  afterAll(async () => {
    await closeDb();
  });

  async function portalCookie(readOnly: boolean): Promise<string> {
    const link = await issuePortalLink(
      staffAdmin,
      { usuarioId: 'tenant-portal', sistemaOrigem: 7, somenteLeitura: readOnly },
      'http://localhost',
    );
    const { cookieValue } = await openPortalSession(new URL(link.url).hash.slice(1));
    return `${PORTAL_COOKIE}=${cookieValue}`;
  }

  const portalRequest = (headers: Record<string, string>, method = 'POST') => markPortalRequest(request(headers, method));
  const portalRoute = (operation: typeof change | typeof read | typeof secretRead) =>
    apiRoute(operation, () => Promise.resolve({ status: 200 as const }), callersOf, 'sonda');

  it('admits the portal’s cookie alone on the portal’s path, and only it there', async () => {
    const cookie = await portalCookie(false);
    expect((await portalRoute(read)(portalRequest({ cookie }, 'GET'), {})).status).toBe(200);
    // The same cookie off the portal's path is not looked at; neither is a Bearer header on it.
    expect((await portalRoute(read)(request({ cookie }, 'GET'), {})).status).toBe(401);
    expect((await portalRoute(read)(portalRequest({ authorization: 'Bearer x' }, 'GET'), {})).status).toBe(401);
  });

  it('lets a read-only session read, and refuses its changes and its reads of a secret', async () => {
    const cookie = await portalCookie(true);
    const sameSite = { cookie, origin: 'http://localhost' };
    expect((await portalRoute(read)(portalRequest(sameSite, 'GET'), {})).status).toBe(200);
    expect(await problemOf(await portalRoute(change)(portalRequest(sameSite), {}))).toMatchObject({
      status: 403,
      detail: 'This portal session is read-only.',
    });
    expect((await portalRoute(secretRead)(portalRequest(sameSite, 'GET'), {})).status).toBe(403);
  });

  it('puts every change and read of a secret in the audit trail with what was answered, and no plain read', async () => {
    const cookie = await portalCookie(false);
    const sameSite = { cookie, origin: 'http://localhost' };
    await portalRoute(read)(portalRequest(sameSite, 'GET'), { id: 'w-1' });
    await portalRoute(change)(portalRequest(sameSite), { id: 'w-2' });
    await portalRoute(secretRead)(portalRequest(sameSite, 'GET'), { id: 'w-3' });
    const entries = await listAudit({ acao: 'portal.request', alvos: ['webhook:w-1', 'webhook:w-2', 'webhook:w-3'] });
    expect(entries.map((entry) => [entry.alvo, entry.statusHttp]).sort()).toEqual([
      ['webhook:w-2', 200],
      ['webhook:w-3', 200],
    ]);
  });
});
