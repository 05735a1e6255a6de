import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AnswerDeclaration, JsonAnswer } from '@/lib/http/answers';
import { operations, type Operation } from '@/lib/api/operations';
import { ref, schemaDoc } from './components';
import { buildOpenApiDocument } from './document';

describe('operations and the OpenAPI document', () => {
  const document = buildOpenApiDocument(operations);

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
    const paths = document.paths as Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: unknown }> } }>>;
    for (const [operationId, operation] of Object.entries(operations) as [string, Operation][]) {
      if (!operation.doc) continue;
      const content = paths[operation.path]![operation.method.toLowerCase()]!.requestBody?.content ?? {};
      expect('application/json' in content, operationId).toBe(operation.body !== undefined);
      // A fixed body is documented by its own component; a factory's (settings-dependent) by the strict default's.
      if (operation.body && typeof operation.body !== 'function')
        expect(content['application/json']!.schema, operationId).toEqual(ref(operation.body));
    }
  });

  it('documents every declared answer, its schema the one the wrapper checks answers against', () => {
    const paths = document.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    for (const [operationId, operation] of Object.entries(operations) as [string, Operation][]) {
      if (!operation.doc) continue;
      const documented = paths[operation.path]![operation.method.toLowerCase()]!.responses;
      for (const [status, declared] of Object.entries(operation.responses)) {
        const where = `${operationId} ${status}`;
        expect(documented[status], where).toBeDefined();
        const media = Object.keys(documented[status]!.content ?? {});
        if (declared.kind === 'json') {
          expect(documented[status]!.content!['application/json'], where).toEqual({ schema: schemaDoc(declared.schema) });
          expect(media.includes('application/problem+json'), where).toBe(declared.orProblem === true);
        }
        if (declared.kind === 'problem') expect(media, where).toEqual(['application/problem+json']);
        if (declared.kind === 'empty') expect(media, where).toEqual([]);
      }
      // And the problems any operation of its kind may answer.
      if (operation.capability !== 'public') expect(Object.keys(documented), operationId).toEqual(expect.arrayContaining(['401', '403']));
      if (operation.body) expect(Object.keys(documented), operationId).toEqual(expect.arrayContaining(['400', '413', '415']));
    }
  });

  it('writes a list of components as an array of references to them', () => {
    const item = Object.values(operations)
      .map((operation) => (operation.responses as Record<number, AnswerDeclaration>)[200])
      .find((declared) => declared?.kind === 'json' && declared.schema instanceof z.ZodArray);
    expect(item).toBeDefined();
    expect(schemaDoc((item as JsonAnswer).schema)).toEqual({
      type: 'array',
      items: { $ref: expect.stringMatching(/^#\/components\/schemas\//) },
    });
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
