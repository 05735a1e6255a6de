import { describe, expect, it, vi } from 'vitest';
import { apiPath, operations, type Operation } from '@/lib/api/operations';
import { dispatch, matchPath } from './dispatch';

/**
 * The API's one router, through its real handlers: every operation is reached at its own path and
 * method (an unauthenticated call gets the wrapper's 401, a public one its own answer), and the
 * router's refusals are problem+json. The e2e spec methods-and-paths.spec.ts asks the same of the
 * running servers, Next's catch-all and the lean path.
 */
const SAMPLE_PARAMS = {
  id: '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b8',
  entregaId: 'msg_0000000000000000000000000000a',
  clientId: 'portal',
  token: 'A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6',
  linkId: '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b9',
  sessaoId: '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7ba',
};
const call = (method: string, path: string) => dispatch(new Request(`http://localhost${path}`, { method }));

describe('the API router', () => {
  it('matches every operation’s own path template, with its params decoded', () => {
    for (const operation of Object.values(operations) as Operation[]) {
      const matched = matchPath(apiPath(operation, SAMPLE_PARAMS));
      expect(matched?.route.template, operation.path).toBe(operation.path);
      expect(matched?.route.handlers.has(operation.method), `${operation.method} ${operation.path}`).toBe(true);
    }
    expect(matchPath('/api/v1/admin/clientes-api/portal%20parceiro/revogacao')?.params).toEqual({ clientId: 'portal parceiro' });
  });

  it('every operation with parameters in its path declares exactly those, for the wrapper to validate', () => {
    for (const [id, operation] of Object.entries(operations) as [string, Operation][]) {
      const inPath = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      expect(Object.keys(operation.params?.shape ?? {}).sort(), id).toEqual(inPath);
    }
  });

  it('never lets an encoded slash cross segments, and throws for a segment that does not decode', () => {
    expect(matchPath('/api/v1/agendamentos%2Fslots-livres')).toBeUndefined();
    expect(matchPath('/api/v2/avaliacao-saude/configuracao-web-hook/a%2Fb/segredo')?.params).toEqual({ id: 'a/b' });
    expect(() => matchPath('/api/v2/avaliacao-saude/configuracao-web-hook/%E0%A4%A')).toThrow(URIError);
  });

  it('hands each request to its operation: authenticated ones ask for a token, public ones answer', async () => {
    const list = await call('GET', operations.listWebhookConfigurations.path);
    expect(list.status).toBe(401);
    expect(list.headers.get('www-authenticate')).toContain('Bearer');
    const liveness = await call('GET', operations.liveness.path);
    expect(liveness.status).toBe(200);
    expect(await liveness.json()).toMatchObject({ status: 'ok' });
  });

  it('answers HEAD like GET without a body, OPTIONS and other methods with the path’s Allow', async () => {
    const head = await call('HEAD', operations.liveness.path);
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    const options = await call('OPTIONS', apiPath(operations.getWebhookConfiguration, SAMPLE_PARAMS));
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('DELETE, GET, PUT, HEAD, OPTIONS');
    const patch = await call('PATCH', apiPath(operations.getWebhookConfiguration, SAMPLE_PARAMS));
    expect(patch.status).toBe(405);
    expect(patch.headers.get('content-type')).toBe('application/problem+json');
    expect(patch.headers.get('allow')).toBe('DELETE, GET, PUT, HEAD, OPTIONS');
  });

  it('answers 404 problem+json for a path no operation has, and 400 for one that does not decode', async () => {
    for (const path of ['/api', '/api/v1/nada', '/api/health/ready/x']) {
      const response = await call('GET', path);
      expect(response.status, path).toBe(404);
      expect((await response.json()).type, path).toContain('not-found');
    }
    const malformed = await call('GET', '/api/v2/avaliacao-saude/configuracao-web-hook/%E0%A4%A');
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).type).toContain('malformed-path');
  });

  it('opens exactly these operations to anyone: each says so, and a new one is a decision made here', () => {
    const open = (Object.values(operations) as Operation[])
      .filter((operation) => operation.capability === 'public')
      .map(({ method, path }) => `${method} ${path}`)
      .sort();
    expect(open).toEqual([
      // Signing out of the portal: it ends whatever session the portal's cookie holds, if any (issue 47).
      'DELETE /api/v2/avaliacao-saude/portal/sessao',
      'GET /api/docs',
      'GET /api/health',
      'GET /api/health/ready',
      'GET /api/openapi.json',
      'GET /metrics',
      'POST /api/v1/auth/definir-senha',
      'POST /api/v1/auth/token',
      // The page of the link e-mailed to a new technical contact confirms it with the link's token (issue 43).
      'POST /api/v2/avaliacao-saude/contato-tecnico/confirmacao',
      // The portal's entry page trades a link's single-use token for a session (issue 30).
      'POST /api/v2/avaliacao-saude/portal/sessao',
    ]);
  });

  it.each([
    ['no capability at all', undefined],
    ['a capability no caller can hold', 'everyone'],
    ['public in other words', 'Public'],
  ])('refuses to start on an operation with %s, rather than serve it to anyone', async (_case, capability) => {
    vi.resetModules();
    vi.doMock('@/lib/api/operations', async (original) => {
      const real = await original<typeof import('@/lib/api/operations')>();
      const forgotten = { ...real.operations.listWebhookConfigurations, path: '/api/v1/esquecida', capability };
      return { ...real, operations: { ...real.operations, forgotten } };
    });
    try {
      await expect(import('./dispatch')).rejects.toThrow(
        "API operation forgotten (GET /api/v1/esquecida) declares no capability: give it the one its callers need, or 'public' if anyone may call it.",
      );
    } finally {
      vi.doUnmock('@/lib/api/operations');
      vi.resetModules();
    }
  });
});
