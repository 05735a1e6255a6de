import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, signInWithPassword, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, STAFF, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Tenant quotas (issue 27 §4), on a server of this spec's own whose limits are set low through its
 * environment: configurations per tenant (409), test events per configuration per minute and
 * events per producer per second (429 with Retry-After), each refused with problem+json that names
 * the limit in `detail` and as `limite`. On PostgreSQL runs, a database of its own.
 */
test.describe.configure({ mode: 'serial' });

const CONFIG_LIMIT = 3;
const TEST_EVENT_LIMIT = 2;
const PUBLISH_LIMIT = 2;
const LIST = apiPath(routes.listWebhookConfigurations);

let server: RunningServer;
let database: Awaited<ReturnType<typeof privateDatabase>>;
let api: APIRequestContext;
let staff: APIRequestContext;
let tenantB: Record<string, string>;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  database = await privateDatabase('quotas');
  server = await startServer({
    dataDir: newDataDir('quotas'),
    env: {
      ...database.env,
      MAX_WEBHOOKS_PER_TENANT: String(CONFIG_LIMIT),
      MAX_TEST_EVENTS_PER_MINUTE: String(TEST_EVENT_LIMIT),
      MAX_EVENTS_PER_SECOND: String(PUBLISH_LIMIT),
      // The seeded receivers do not exist: a test event's one attempt fails, the next waits ten minutes.
      WEBHOOK_RETRY_SCHEDULE: '600',
    },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantB = bearer(await tokenFor(api, TENANT_B));
  staff = await playwright.request.newContext({ baseURL: server.url, extraHTTPHeaders: { origin: server.url } });
  expect(await signInWithPassword(staff, STAFF.webhooks.email, STAFF.webhooks.password)).toBeNull();
});

test.afterAll(async () => {
  await api?.dispose();
  await staff?.dispose();
  await server?.stop();
  await database?.drop();
});

async function expectProblem(response: APIResponse, status: number, type: string, limit: number) {
  expect(response.status()).toBe(status);
  expect(response.headers()['content-type']).toContain('application/problem+json');
  const body = (await response.json()) as { type: string; status: number; detail: string; limite: number };
  expect(body).toMatchObject({ type: `urn:integration-console:problem:${type}`, status, limite: limit });
  expect(body.detail).toContain(` ${limit} `);
  return body;
}

test(`a tenant has at most ${CONFIG_LIMIT} configurations: the next create is a 409 naming the limit, and deleting one makes room`, async () => {
  const create = (context: APIRequestContext, headers: Record<string, string>, index: number, tenant: Record<string, unknown> = {}) =>
    context.post(LIST, {
      headers,
      data: { url: `https://cota-${index}.receptor-b.exemplo.com.br/`, eventoPropostaCancelada: true, ...tenant },
    });
  // Tenant B starts with one seeded configuration (b1).
  const created: string[] = [];
  for (let index = 1; index < CONFIG_LIMIT; index++) {
    const answer = await create(api, tenantB, index);
    expect(answer.status()).toBe(201);
    created.push(((await answer.json()) as { id: string }).id);
  }
  const refused = await create(api, tenantB, 9);
  expect(refused.headers()['retry-after']).toBeUndefined();
  expect((await expectProblem(refused, 409, 'webhook-configuration-quota', CONFIG_LIMIT)).detail).toContain('MAX_WEBHOOKS_PER_TENANT');
  expect(await (await api.get(LIST, { headers: tenantB })).json()).toHaveLength(CONFIG_LIMIT);

  // The limit is the tenant's, whoever creates: staff creating for tenant B are refused the same way.
  const tenant = { usuarioId: TENANT_B.usuarioId, sistemaOrigem: TENANT_B.sistemaOrigem };
  await expectProblem(await create(staff, {}, 10, tenant), 409, 'webhook-configuration-quota', CONFIG_LIMIT);
  // Another tenant's room is its own.
  expect((await create(staff, {}, 11, { usuarioId: PRODUCER.usuarioId, sistemaOrigem: 1 })).status()).toBe(201);

  expect((await api.delete(apiPath(routes.deleteWebhookConfiguration, { id: created[0]! }), { headers: tenantB })).status()).toBe(204);
  expect((await create(api, tenantB, 12)).status()).toBe(201);
});

test(`a configuration gets at most ${TEST_EVENT_LIMIT} test events a minute: then 429 with Retry-After naming the limit`, async () => {
  const send = (id: string, headers: Record<string, string>) => api.post(apiPath(routes.sendTestEvent, { id }), { headers });
  for (let i = 0; i < TEST_EVENT_LIMIT; i++) expect((await send(WEBHOOK_IDS.b1, tenantB)).status()).toBe(202);
  const refused = await send(WEBHOOK_IDS.b1, tenantB);
  const body = await expectProblem(refused, 429, 'test-event-rate', TEST_EVENT_LIMIT);
  expect(body).toMatchObject({ janelaSegundos: 60 });
  expect(body.detail).toContain('MAX_TEST_EVENTS_PER_MINUTE');
  const retryAfter = Number(refused.headers()['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  // Nothing was queued for the refused one.
  const deliveries = (await (
    await api.get(apiPath(routes.listDeliveries, { id: WEBHOOK_IDS.b1 }), { headers: tenantB })
  ).json()) as unknown[];
  expect(deliveries).toHaveLength(TEST_EVENT_LIMIT);
  // Another tenant's id is still a 404, not a 429: the limit says nothing about configurations one cannot see.
  expect((await send(WEBHOOK_IDS.b1, bearer(await tokenFor(api, TENANT_A)))).status()).toBe(404);
  // Each configuration counts its own.
  expect((await send(WEBHOOK_IDS.a1, bearer(await tokenFor(api, TENANT_A)))).status()).toBe(202);
});

test(`a producer publishes at most ${PUBLISH_LIMIT} events a second: the next is a 429 with Retry-After, and nothing of it is recorded`, async () => {
  const producer = bearer(await tokenFor(api, PRODUCER));
  const publish = (idEvento: string) =>
    api.post(apiPath(routes.publishEvent), {
      headers: producer,
      data: { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_B.usuarioId, idEvento, dados: {} },
    });
  // As fast as one connection goes: some second holds more than the limit, so some answer is a refusal.
  const answers: { idEvento: string; response: APIResponse }[] = [];
  for (let i = 0; i < 20 && !answers.some(({ response }) => response.status() === 429); i++) {
    answers.push({ idEvento: `cota-${i}`, response: await publish(`cota-${i}`) });
  }
  const refused = answers.find(({ response }) => response.status() === 429);
  expect(refused, 'a refusal within 20 publishes').toBeDefined();
  expect(answers.filter(({ response }) => response.status() === 202).length).toBeGreaterThanOrEqual(PUBLISH_LIMIT);
  const body = await expectProblem(refused!.response, 429, 'publish-rate', PUBLISH_LIMIT);
  expect(body).toMatchObject({ janelaSegundos: 1 });
  expect(body.detail).toContain('MAX_EVENTS_PER_SECOND');
  expect(refused!.response.headers()['retry-after']).toBe('1');
  // Refused means not recorded: after Retry-After the same idEvento is a new event (202), not a repeat (200).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect((await publish(refused!.idEvento)).status()).toBe(202);
  // An accepted one is still answered as a repeat.
  expect((await publish('cota-0')).status()).toBe(200);
});

test('a batch counts each of its events toward the producer’s limit: one that would go past it is refused whole, and one larger than the limit always', async () => {
  const producer = bearer(await tokenFor(api, PRODUCER));
  const event = (idEvento: string) => ({ tipo: 'eventoPropostaCancelada', usuarioId: TENANT_B.usuarioId, idEvento, dados: {} });
  const batch = (...ids: string[]) => api.post(apiPath(routes.publishEventBatch), { headers: producer, data: { eventos: ids.map(event) } });
  const tooLarge = await expectProblem(await batch('lote-a', 'lote-b', 'lote-c'), 429, 'publish-rate', PUBLISH_LIMIT);
  expect(tooLarge.detail).toContain('smaller batches');
  // A second after the last test's publishes, a window of its own: the limit's worth goes in…
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect((await batch('lote-a', 'lote-b')).status()).toBe(202);
  // …and within the same second, one more is refused with nothing of it recorded.
  await expectProblem(await batch('lote-c', 'lote-b'), 429, 'publish-rate', PUBLISH_LIMIT);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const later = await batch('lote-c', 'lote-b');
  expect(later.status()).toBe(202);
  expect(((await later.json()) as { eventos: { repetido: boolean }[] }).eventos.map((outcome) => outcome.repetido)).toEqual([false, true]);
});
