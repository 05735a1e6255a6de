import { describe, expect, it } from 'vitest';
import { operations, type Operation } from '@/lib/api/operations';
import { ref } from './components';
import { buildOpenApiDocument } from './document';

describe('operations and the OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('documents every operation that has documentation, under its operationId', () => {
    const paths = document.paths as Record<string, Record<string, { operationId: string }>>;
    for (const [operationId, operation] of Object.entries(operations)) {
      const documented = paths[operation.path]?.[operation.method.toLowerCase()];
      if ('doc' in operation) expect(documented?.operationId, operationId).toBe(operationId);
      else expect(documented, operationId).toBeUndefined();
    }
  });

  it('lets anonymous callers in exactly where the operation is public', () => {
    const paths = document.paths as Record<string, Record<string, { security?: object[] }>>;
    for (const [operationId, operation] of Object.entries(operations) as [string, Operation][]) {
      if (!operation.doc) continue;
      // An empty requirement list, or an empty requirement among others, asks nothing of the caller.
      const security = paths[operation.path]![operation.method.toLowerCase()]!.security ?? document.security;
      const anonymous = security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);
      expect(anonymous, operationId).toBe(operation.capability === 'public');
    }
  });

  it('documents a JSON request body exactly where the operation declares one', () => {
    for (const [operationId, operation] of Object.entries(operations) as [string, Operation][]) {
      const content = (operation.doc?.requestBody as { content?: Record<string, { schema: unknown }> } | undefined)?.content ?? {};
      expect('application/json' in content, operationId).toBe(operation.body !== undefined);
      // A fixed body is documented by its own component; a factory's (settings-dependent) by the strict default's.
      if (operation.body && typeof operation.body !== 'function')
        expect(content['application/json']!.schema, operationId).toEqual(ref(operation.body));
    }
  });

  it('lists only components some operation or webhook refers to', () => {
    const paths = JSON.stringify({ paths: document.paths, webhooks: document.webhooks });
    for (const name of Object.keys(document.components.schemas)) expect(paths, name).toContain(`"#/components/schemas/${name}"`);
  });

  it('resolves every $ref to a component schema', () => {
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(10);
    for (const name of refs) expect(document.components.schemas, name).toHaveProperty(name);
  });
});
