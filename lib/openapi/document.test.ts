import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations, type Operation } from '@/lib/api/operations';
import { ROUTE_METHODS, type RefusingHandler } from '@/lib/http/route';
import { buildOpenApiDocument } from './document';

const UNKNOWN_PATH_ROUTE = '/api/{[...unknown]}';

/** Every route module under app/api (less next-auth's), with its URL path template. */
function routeFiles(): { file: string; path: string }[] {
  const root = path.resolve(__dirname, '../../app');
  const found: { file: string; path: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts') {
        const segments = path.relative(root, path.dirname(full)).split(path.sep);
        found.push({ file: full, path: '/' + segments.map((s) => s.replace(/^\[(.+)\]$/, '{$1}')).join('/') });
      }
    }
  };
  walk(path.join(root, 'api'));
  return found.filter((route) => !route.path.startsWith('/api/auth/'));
}

describe('operations, routes and the OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('every route export serves a defined operation at its own path and method, and every operation is served', async () => {
    const served = new Set<Operation>();
    for (const route of routeFiles().filter((route) => route.path !== UNKNOWN_PATH_ROUTE)) {
      const routeModule = (await import(route.file)) as Record<string, unknown>;
      const boundMethods: string[] = [];
      const refusing: RefusingHandler[] = [];
      for (const method of ROUTE_METHODS) {
        const handler = routeModule[method] as ({ operation?: Operation } & Partial<RefusingHandler>) | undefined;
        // Next answers HEAD from GET; every other method must be exported, served or refused with 405.
        if (method === 'HEAD' && (routeModule.GET as { operation?: Operation } | undefined)?.operation) {
          expect(handler, `HEAD ${route.path} is left to GET`).toBeUndefined();
          continue;
        }
        expect(handler, `${method} ${route.path} is exported`).toBeDefined();
        if (handler?.refuses) {
          refusing.push(handler as RefusingHandler);
          continue;
        }
        expect(handler!.operation, `${method} ${route.path} is bound to an operation`).toBeDefined();
        expect({ method: handler!.operation!.method, path: handler!.operation!.path }).toEqual({ method, path: route.path });
        served.add(handler!.operation!);
        boundMethods.push(method);
      }
      const allow = [...boundMethods, ...(boundMethods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      for (const handler of refusing)
        expect({ refuses: handler.refuses, allow: handler.allow }, route.path).toEqual({ refuses: 405, allow });
    }
    const unserved = Object.entries(operations)
      .filter(([, operation]) => !served.has(operation))
      .map(([id]) => id);
    expect(unserved).toEqual([]);
  }, 30_000);

  it('documents every operation that has documentation, under its operationId', () => {
    const paths = document.paths as Record<string, Record<string, { operationId: string }>>;
    for (const [operationId, operation] of Object.entries(operations)) {
      const documented = paths[operation.path]?.[operation.method.toLowerCase()];
      if ('doc' in operation) expect(documented?.operationId, operationId).toBe(operationId);
      else expect(documented, operationId).toBeUndefined();
    }
  });

  it('resolves every $ref to a component schema', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const name of refs) expect(document.components.schemas, name).toHaveProperty(name);
  });
});
