import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '@/lib/api/operations';
import { buildOpenApiDocument } from './document';

/**
 * A partner's receiver typed from the document (issue 22): openapi-typescript, the usual generator,
 * turns the `webhooks` section into types, and a handler written against them type-checks. One that
 * reads a field the message does not have fails, so the check bites.
 */
describe('a receiver typed from the OpenAPI document', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-receiver-'));

  beforeAll(async () => {
    const ast = await openapiTS(buildOpenApiDocument(operations) as unknown as Parameters<typeof openapiTS>[0]);
    fs.writeFileSync(path.join(dir, 'api.d.ts'), astToString(ast));
  }, 30_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function typeCheck(handler: string): string[] {
    const file = path.join(dir, `handler-${Math.random().toString(36).slice(2)}.ts`);
    fs.writeFileSync(file, `import type { webhooks } from './api';\n${handler}\n`);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
    });
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  }

  const HANDLER = `
type Cancelled = webhooks['proposta.cancelada']['post']['requestBody']['content']['application/json'];
type Test = webhooks['webhook.teste']['post']['requestBody']['content']['application/json'];
export function onCancelled(message: Cancelled): string {
  const type: 'proposta.cancelada' = message.type;
  const when: string = message.timestamp;
  const tenant: string = message.data.usuarioId;
  const id: string = message.data.idEvento;
  return [type, when, tenant, id, String(message.data['proposta'])].join(' ');
}
export function onTest(message: Test): string {
  return message.data.mensagem;
}`;

  // Each case runs the TypeScript compiler: seconds of CPU, more on a loaded 2-core machine.
  const COMPILER_TIMEOUT_MS = 30_000;

  it('generates a type for every event type, and a handler written against them type-checks', { timeout: COMPILER_TIMEOUT_MS }, () => {
    expect(typeCheck(HANDLER)).toEqual([]);
  });

  it('refuses a handler that reads what a message does not carry', { timeout: COMPILER_TIMEOUT_MS }, () => {
    const errors = typeCheck(`${HANDLER}
export function wrong(message: Cancelled): number {
  return message.data.usuarioId + message.tipo;
}`);
    expect(errors.join('\n')).toContain("Property 'tipo' does not exist");
  });
});
