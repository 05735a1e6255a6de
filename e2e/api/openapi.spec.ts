import { expect, test } from '@playwright/test';
import { z } from 'zod';
import { bearer, reservationBody, RESERVE_PATH, tokenFor, webhookPath } from '../support/api';
import { slotOf, WEBHOOK_IDS } from '../support/test-seed';

/**
 * GET /api/openapi.json from the production build: public, OpenAPI 3.1, and its schemas describe
 * what the routes really accept and answer. The document's JSON Schemas are turned back into
 * validators (z.fromJSONSchema reads only the JSON), then run against real bodies and answers.
 */
type Security = Record<string, string[]>[];
type Doc = {
  openapi: string;
  security: Security;
  paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown>; security?: Security }>>;
  components: { schemas: Record<string, object>; securitySchemes: Record<string, { type: string; flows?: unknown }> };
};

let doc: Doc;
const validator = (name: string) => z.fromJSONSchema(doc.components.schemas[name] as Parameters<typeof z.fromJSONSchema>[0]);

test.beforeAll(async ({ request }) => {
  const response = await request.get('/api/openapi.json');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  doc = await response.json();
});

test('is an OpenAPI 3.1 document of every operation, with bearer and client-credentials security', () => {
  expect(doc.openapi).toBe('3.1.0');
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((k) => k !== 'parameters')
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
  expect(operations).toEqual(
    expect.arrayContaining([
      'POST /api/v1/auth/token',
      'GET /api/v2/avaliacao-saude/configuracao-web-hook',
      'GET /api/v2/avaliacao-saude/configuracao-web-hook/{id}',
      'PUT /api/v2/avaliacao-saude/configuracao-web-hook/{id}',
      'GET /api/v1/agendamentos/slots-livres',
      'POST /api/v1/agendamentos/slots-livres/reservar',
      'POST /api/v1/agendamentos/exames/slots-livres/reservas',
      'GET /api/v1/auditoria',
    ]),
  );
  expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  expect(doc.components.securitySchemes.oauth2).toMatchObject({
    type: 'oauth2',
    flows: { clientCredentials: { tokenUrl: '/api/v1/auth/token' } },
  });
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
  for (const name of new Set(refs)) expect(doc.components.schemas, name).toHaveProperty(name);
  expect(new Set(refs)).toEqual(new Set(Object.keys(doc.components.schemas)));
});

test('lets anonymous callers into the public operations only, and the others answer them 401', async ({ request }) => {
  const anonymous: string[] = [];
  let refused = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const security = operation.security ?? doc.security;
      // No requirement, or an empty one among them, asks nothing of the caller.
      if (security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0)) {
        anonymous.push(`${method.toUpperCase()} ${path}`);
        continue;
      }
      const concrete = path
        .replace('{id}', WEBHOOK_IDS.a1)
        .replace('{entregaId}', 'msg_0000000000000000000000000000a')
        .replace('{clientId}', 'portal')
        .replace('{linkId}', '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7b9')
        .replace('{sessaoId}', '3f2a9c1e-5b7d-4e8f-a1b2-c3d4e5f6a7ba');
      const response = await request.fetch(concrete, { method: method.toUpperCase() });
      expect(response.status(), `${method.toUpperCase()} ${path}`).toBe(401);
      refused++;
    }
  }
  expect(refused).toBeGreaterThan(30);
  // The documented ones of the operations that say capability 'public' (lib/api/dispatch.test.ts pins them all).
  expect(anonymous.sort()).toEqual([
    'DELETE /api/v2/avaliacao-saude/portal/sessao',
    'GET /api/health',
    'GET /api/health/ready',
    'POST /api/v1/auth/definir-senha',
    'POST /api/v1/auth/token',
    'POST /api/v2/avaliacao-saude/contato-tecnico/confirmacao',
    'POST /api/v2/avaliacao-saude/portal/sessao',
  ]);
});

test('the reservation request schema accepts what the route accepts and refuses what it refuses', async ({ request }) => {
  const schema = validator('SlotReservationRequest');
  const valid = reservationBody({ nrSeqAgenda: slotOf(913, 20), cdPessoaFisica: 913020 });
  expect(schema.safeParse(valid).success).toBe(true);
  expect(schema.safeParse({ ...valid, ieOpcao: 'CR', tokenReservaCanc: 'ABC123' }).success).toBe(true);
  for (const invalid of [
    { ...valid, ieOpcao: 'X' },
    { ...valid, nrSeqAgenda: '913021' },
    { ...valid, nrSeqAgenda: 1.5 },
    { ...valid, nmUsuario: 'x'.repeat(31) },
    { ...valid, tokenReservaCanc: 'x'.repeat(33) },
    { ...valid, campoExtra: true },
    Object.fromEntries(Object.entries(valid).filter(([k]) => k !== 'cdPlano')),
  ]) {
    expect(schema.safeParse(invalid).success, JSON.stringify(invalid)).toBe(false);
    const auth = bearer(await tokenFor(request));
    expect((await request.post(RESERVE_PATH, { headers: auth, data: invalid })).status(), JSON.stringify(invalid)).toBe(400);
  }

  const auth = bearer(await tokenFor(request));
  const answer = await request.post(RESERVE_PATH, { headers: auth, data: valid });
  expect(answer.status()).toBe(200);
  expect(validator('SlotReservationResponse').safeParse(await answer.json()).success).toBe(true);
});

test('the webhook schemas match the seed, the real answers and the problem bodies', async ({ request }) => {
  const auth = bearer(await tokenFor(request));
  const update = validator('WebhookUpdate');
  expect(
    update.safeParse({
      url: 'https://receptor.exemplo.com.br/hooks',
      headers: [{ chave: 'X-Api-Key', valor: 'v' }],
      eventoPropostaCancelada: true,
    }).success,
  ).toBe(true);
  expect(update.safeParse({}).success).toBe(true);
  expect(update.safeParse({ eventoPropostaCancelada: 'sim' }).success).toBe(false);
  expect(update.safeParse({ headers: [{ chave: 'X' }] }).success).toBe(false);
  expect(update.safeParse({ urll: 'https://x.exemplo.com.br/' }).success).toBe(false);

  const config = await request.get(webhookPath(WEBHOOK_IDS.a3), { headers: auth });
  expect(validator('WebhookDetail').safeParse(await config.json()).success).toBe(true);
  const saved = await request.put(webhookPath(WEBHOOK_IDS.a3), { headers: auth, data: {} });
  expect(validator('WebhookView').safeParse(await saved.json()).success).toBe(true);

  const problem = await request.put(webhookPath(WEBHOOK_IDS.a3), { headers: auth, data: { url: 'https://127.0.0.1/' } });
  expect(problem.status()).toBe(400);
  expect(validator('Problem').safeParse(await problem.json()).success).toBe(true);

  const token = await request.post('/api/v1/auth/token', {
    form: { grant_type: 'client_credentials', client_id: 'x', client_secret: 'y' },
  });
  expect(validator('OAuthError').safeParse(await token.json()).success).toBe(true);
});
