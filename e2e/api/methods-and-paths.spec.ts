import { expect, test } from '@playwright/test';
import { routes, type Route } from '@/lib/api/routes';
import { requestFrom } from '../support/from-address';
import { WEBHOOK_IDS } from '../support/test-seed';

/**
 * Every /api path answers problem+json: 405 with the path's real `Allow` for a method it does not
 * serve (TRACE included, which Fetch cannot even represent), 404 for a path no operation has.
 */
const PROBLEM = 'application/problem+json';

/** Each operation path once, with the methods its operations serve. */
function pathsAndMethods(): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const operation of Object.values(routes) as Route[]) {
    byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation.method]);
  }
  return byPath;
}

function concrete(path: string): string {
  return path.replace('{id}', WEBHOOK_IDS.a8);
}

/** The Allow a path must answer, as a sorted list (the header's order means nothing). */
function expectedAllow(methods: string[]): string[] {
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].sort();
}

function allowOf(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((method) => method.trim())
    .sort();
}

test('a method a path does not serve → 405 problem+json with that path’s Allow', async ({ request }) => {
  for (const [path, methods] of pathsAndMethods()) {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].filter((m) => !methods.includes(m))) {
      const response = await request.fetch(concrete(path), { method });
      expect(response.status(), `${method} ${path}`).toBe(405);
      expect(response.headers()['content-type'], `${method} ${path}`).toContain(PROBLEM);
      expect(allowOf(response.headers().allow), `${method} ${path}`).toEqual(expectedAllow(methods));
      expect((await response.json()).type).toContain('method-not-allowed');
    }
  }
});

test('HEAD is answered like GET, without a body, wherever GET is served', async ({ request }) => {
  const health = await request.head('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.body()).toHaveLength(0);
  // Without a session it is the same 401 as GET's: HEAD goes through the same wrapper.
  const list = await request.head(concrete(routes.listWebhookConfigurations.path));
  expect(list.status()).toBe(401);
});

test('TRACE → 405 problem+json with Allow, not a 500', async ({ baseURL }) => {
  for (const [path, methods] of pathsAndMethods()) {
    const response = await requestFrom('127.0.0.1', `${baseURL}${concrete(path)}`, { method: 'TRACE' });
    expect(response.status, path).toBe(405);
    expect(response.headers['content-type'], path).toContain(PROBLEM);
    expect(allowOf(response.headers.allow), path).toEqual(expectedAllow(methods));
  }
  const unknown = await requestFrom('127.0.0.1', `${baseURL}/api/v1/nada`, { method: 'TRACE' });
  expect(unknown.status).toBe(404);
});

test('a path no operation has → 404 problem+json for every method', async ({ request }) => {
  const paths = [
    '/api',
    '/api/v1/nada',
    '/api/v2/avaliacao-saude/configuracao-web-hook/a/b/c',
    '/api/v1/agendamentos%2Fslots-livres',
    '/api/v1/agendamentos/slots-livres%2Freservar',
  ];
  for (const path of paths) {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const response = await request.fetch(path, { method });
      expect(response.status(), `${method} ${path}`).toBe(404);
      expect(response.headers()['content-type'], `${method} ${path}`).toContain(PROBLEM);
      if (method !== 'OPTIONS') expect((await response.json()).type, `${method} ${path}`).toContain('not-found');
    }
  }
});
