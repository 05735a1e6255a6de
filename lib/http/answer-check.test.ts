import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer } from '@/lib/http/answers';
import { refuse } from '@/lib/errors/refusal';
import { publicRoute } from './route';
import { toResponse } from './reply';
import { resetEnv, logTo } from '@/lib/testing/hooks';

/**
 * The wrapper checks every answer against its operation's declared responses in tests and
 * development (and where API_CHECK_RESPONSES=true, as in the e2e runs), and lets answers through
 * untouched in production. Operations made up here, served through the real wrapper.
 */
const patientSchema = z.strictObject({ nome: z.string(), idade: z.number().int() });
const testOperation = {
  method: 'GET',
  path: '/api/teste',
  capability: 'public',
  responses: {
    200: answer.json(patientSchema, 'A patient.'),
    202: answer.empty('Accepted, nothing to say.'),
    204: answer.empty('Nothing.'),
    404: answer.problem('No such patient.'),
  },
} as const;
/** zod's plain object lets unknown fields through (and strips them); the document it is published as does not. */
const lenientOperation = {
  ...testOperation,
  responses: { 200: answer.json(z.object({ nome: z.string() }), 'A patient, by a schema that strips what it does not name.') },
} as const;

/** What a handler may answer at run time, whatever the types say: the check is for what they cannot see. */
type Anything = { status: number; body?: unknown; headers?: Record<string, string> };
const serve = (handler: () => Anything | Promise<Anything>) => publicRoute(testOperation, handler as never, 'lerPaciente');
const call = async (route: ReturnType<typeof serve>) => toResponse(await route(new Request('http://localhost/api/teste'), {}));

const lines: Record<string, unknown>[] = [];
const rawLines: string[] = [];
const SETTINGS = ['API_CHECK_RESPONSES', 'NODE_ENV'] as const;
// process.env typed as Next declares it (NODE_ENV read-only): these tests play each environment.
const environment = process.env as Record<string, string | undefined>;
const saved = Object.fromEntries(SETTINGS.map((name) => [name, environment[name]]));

function settings(values: Partial<Record<(typeof SETTINGS)[number], string | undefined>>) {
  for (const name of SETTINGS) {
    const value = values[name];
    if (value === undefined) delete environment[name];
    else environment[name] = value;
  }
  resetEnv();
}

beforeEach(() => {
  delete process.env.LOG_SILENT;
  logTo({
    write: (line: string) => {
      rawLines.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
});
afterEach(() => {
  logTo(undefined);
  lines.length = 0;
  rawLines.length = 0;
  settings(saved);
});

const mismatches = () => lines.filter((line) => line.event === 'api.answer_mismatch');

describe('in check mode (tests and development by default)', () => {
  beforeEach(() => settings({ NODE_ENV: 'test' }));

  it('lets a declared answer that matches its schema through as it is', async () => {
    const response = await call(serve(() => ({ status: 200, body: { nome: 'Maria', idade: 41 } })));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ nome: 'Maria', idade: 41 });
    expect((await call(serve(() => ({ status: 204 })))).status).toBe(204);
    expect(mismatches()).toEqual([]);
  });

  it('answers 500 for a body that does not match, logging the operation and where, never the body', async () => {
    const response = await call(serve(() => ({ status: 200, body: { nome: 'Maria', idade: '41 anos' } })));
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 500, type: 'urn:integration-console:problem:internal' });
    expect(mismatches()).toEqual([
      expect.objectContaining({ level: 'error', operation: 'lerPaciente', status: 200, at: 'idade', issue: 'invalid_type' }),
    ]);
    expect(rawLines.join('\n')).not.toContain('41 anos');
  });

  it('names a field the schema does not have, not its value', async () => {
    const response = await call(serve(() => ({ status: 200, body: { nome: 'Maria', idade: 41, cpf: '123.456.789-09' } })));
    expect(response.status).toBe(500);
    expect(mismatches()[0]).toMatchObject({ at: '', issue: 'unrecognized_keys: cpf' });
    expect(rawLines.join('\n')).not.toContain('123.456.789-09');
  });

  it('holds a body to the JSON Schema the document publishes too: no field it does not name', async () => {
    const route = publicRoute(
      lenientOperation,
      (() => ({ status: 200, body: { nome: 'Maria', senhaHash: 'scrypt$…' } })) as never,
      'lerPaciente',
    );
    expect((await call(route)).status).toBe(500);
    expect(mismatches()[0]).toMatchObject({ at: '', issue: 'unrecognized_keys: senhaHash' });
    expect(rawLines.join('\n')).not.toContain('scrypt$');
  });

  it('answers 500 for a status the operation does not declare, or a body where it declares none', async () => {
    expect((await call(serve(() => ({ status: 201, body: { nome: 'Maria', idade: 41 } })))).status).toBe(500);
    expect((await call(serve(() => ({ status: 202, body: { nome: 'Maria', idade: 41 } })))).status).toBe(500);
    expect(mismatches().map(({ issue }) => issue)).toEqual(['undeclared_status', 'unexpected_body']);
  });

  it('lets a refusal through with a status the operation declares, or one every operation may answer', async () => {
    expect((await call(serve(() => Promise.reject(refuse.notFound()))))?.status).toBe(404);
    expect((await call(serve(() => Promise.reject(new Error('boom'))))).status).toBe(500);
    expect(mismatches()).toEqual([]);
  });

  it('answers 500 for a refusal whose status the operation does not declare', async () => {
    const response = await call(serve(() => Promise.reject(refuse.conflict('ocupado', 'Taken.'))));
    expect(response.status).toBe(500);
    expect(mismatches()[0]).toMatchObject({ operation: 'lerPaciente', status: 409, issue: 'undeclared_problem_status' });
  });

  it('is on in production too when API_CHECK_RESPONSES says so (the e2e runs)', async () => {
    settings({ NODE_ENV: 'production', API_CHECK_RESPONSES: 'true' });
    expect((await call(serve(() => ({ status: 200, body: { nome: 7 } })))).status).toBe(500);
  });
});

describe('in production', () => {
  it('lets even a mismatching answer through untouched, and logs nothing about it', async () => {
    settings({ NODE_ENV: 'production' });
    const response = await call(serve(() => ({ status: 200, body: { nome: 'Maria', idade: '41 anos', extra: true } })));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ nome: 'Maria', idade: '41 anos', extra: true });
    expect((await call(serve(() => Promise.reject(refuse.conflict('ocupado', 'Taken.'))))).status).toBe(409);
    expect(mismatches()).toEqual([]);
  });

  it('and anywhere API_CHECK_RESPONSES=false turns the check off', async () => {
    settings({ NODE_ENV: 'development', API_CHECK_RESPONSES: 'false' });
    expect((await call(serve(() => ({ status: 201 })))).status).toBe(201);
    expect(mismatches()).toEqual([]);
  });
});
