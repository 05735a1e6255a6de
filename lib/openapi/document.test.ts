import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './document';

/** Every route file under app/api, as its URL path template and the HTTP methods it exports. */
function apiRoutes(): { path: string; methods: string[] }[] {
  const root = path.resolve(__dirname, '../../app');
  const found: { path: string; methods: string[] }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'route.ts' && full.includes(`${path.sep}api${path.sep}`)) {
        const source = fs.readFileSync(full, 'utf8');
        const methods = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]!.toLowerCase());
        const urlPath =
          '/' +
          path
            .relative(root, path.dirname(full))
            .split(path.sep)
            .map((s) => s.replace(/^\[(.+)\]$/, '{$1}'))
            .join('/');
        found.push({ path: urlPath, methods });
      }
    }
  };
  walk(path.join(root, 'api'));
  return found;
}

describe('OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('describes every API route and method (except itself, its HTML reference and the console’s auth routes)', () => {
    const undocumented = new Set(['/api/openapi.json', '/api/docs']);
    const routes = apiRoutes().filter((route) => !undocumented.has(route.path) && !route.path.startsWith('/api/auth/'));
    expect(routes.length).toBeGreaterThanOrEqual(7);
    for (const route of routes) {
      const item = (document.paths as Record<string, Record<string, unknown>>)[route.path];
      expect(item, route.path).toBeDefined();
      for (const method of route.methods) expect(item?.[method], `${method} ${route.path}`).toBeDefined();
    }
  });

  it('resolves every $ref to a component schema', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const name of refs) expect(document.components.schemas, name).toHaveProperty(name);
  });
});
