import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, signInWithPassword, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Staff see every tenant's incidents (issue 27 §11). Tenant A creates more configurations than a
 * page holds, all with URLs that sort first, and every one of its receivers answers 410 (switched
 * off at once: an alert each); tenant B has one receiver down (circuit open: an alert). Asked three
 * to a page, the staff's alert and triage lists still show B's alert on the first page: they are
 * ranked worst first in the database, each tenant's worst before any tenant's second, and paged
 * with a total. Before, both lists took the first 500 configurations by URL.
 */
test.describe.configure({ mode: 'serial' });

const HOSTILE = 6;
const PAGE = 3;

type Alert = { id: string; configuracaoId: string; usuarioId: string; tipo: string };
type TriageItem = { id: string; usuarioId: string; situacao: { estado: string }; alerta: { tipo: string } | null };
type Page<T> = { itens: T[]; total: number; pagina: number; limite: number };

let server: RunningServer;
let database: Awaited<ReturnType<typeof privateDatabase>>;
let receiver: Receiver;
let api: APIRequestContext;
let staff: APIRequestContext;
let tenantA: Record<string, string>;
let tenantB: Record<string, string>;
const hostileIds: string[] = [];

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  receiver.script('/z-fora', { status: 503 });
  database = await privateDatabase('staff_lists');
  server = await startServer({
    dataDir: newDataDir('staff-lists'),
    env: {
      ...database.env,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '600',
      // One outage opens a circuit, and staff hear of it at once.
      WEBHOOK_CIRCUIT_FAILURES: '1',
      WEBHOOK_CIRCUIT_OPEN_SECONDS: '600',
      WEBHOOK_ALERT_CIRCUIT_MINUTES: '0',
      WEBHOOK_ALERT_CHECK_SECONDS: '0.3',
    },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
  tenantB = bearer(await tokenFor(api, TENANT_B));
  staff = await playwright.request.newContext({ baseURL: server.url });
  expect(await signInWithPassword(staff, STAFF.webhooks.email, STAFF.webhooks.password)).toBeNull();

  for (let i = 0; i < HOSTILE; i++) {
    const path = `/a-fora-${i}`;
    receiver.script(path, { status: 410 });
    const created = await api.post(apiPath(routes.listWebhookConfigurations), { headers: tenantA, data: { url: receiver.url(path) } });
    expect(created.status()).toBe(201);
    hostileIds.push(((await created.json()) as { id: string }).id);
  }
  const moved = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.b1 }), {
    headers: tenantB,
    data: { url: receiver.url('/z-fora') },
  });
  expect(moved.status()).toBe(200);
  // A test event each: tenant A's receivers answer 410, tenant B's 503.
  for (const [id, headers] of [...hostileIds.map((id) => [id, tenantA] as const), [WEBHOOK_IDS.b1, tenantB] as const]) {
    expect((await api.post(apiPath(routes.sendTestEvent, { id }), { headers })).status()).toBe(202);
  }
  await expect
    .poll(async () => (await alerts(staff, PAGE)).total, { timeout: 20_000, message: 'every incident alerted' })
    .toBe(HOSTILE + 1);
});

test.afterAll(async () => {
  await api?.dispose();
  await staff?.dispose();
  await receiver?.stop();
  await server?.stop();
  await database?.drop();
});

async function alerts(context: APIRequestContext, limite: number, pagina = 1, headers: Record<string, string> = {}) {
  const answer = await context.get(`${apiPath(routes.listDeliveryAlerts)}?limite=${limite}&pagina=${pagina}`, { headers });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Page<Alert>;
}

async function triage(context: APIRequestContext, limite: number, pagina = 1, headers: Record<string, string> = {}) {
  const answer = await context.get(`${apiPath(routes.deliveryTriage)}?limite=${limite}&pagina=${pagina}`, { headers });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Page<TriageItem>;
}

test('the alert list: another tenant’s open alert is on the first page, however many alerts tenant A has; every page once', async () => {
  const first = await alerts(staff, PAGE);
  expect(first).toMatchObject({ total: HOSTILE + 1, pagina: 1, limite: PAGE });
  expect(first.itens).toHaveLength(PAGE);
  expect(first.itens).toContainEqual(
    expect.objectContaining({ configuracaoId: WEBHOOK_IDS.b1, tipo: 'circuito-aberto', usuarioId: TENANT_B.usuarioId }),
  );
  // Each tenant's worst first: tenant A's oldest switched-off receiver (switched off before a receiver down), then B's.
  expect(first.itens[0]).toMatchObject({ usuarioId: TENANT_A.usuarioId, tipo: 'desativada' });
  expect(first.itens[1]).toMatchObject({ configuracaoId: WEBHOOK_IDS.b1 });
  const all: string[] = [];
  for (let pagina = 1; pagina <= Math.ceil(first.total / PAGE); pagina++)
    all.push(...(await alerts(staff, PAGE, pagina)).itens.map((a) => a.id));
  expect(all).toHaveLength(HOSTILE + 1);
  expect(new Set(all).size).toBe(HOSTILE + 1);
  expect((await alerts(staff, PAGE, 4)).itens).toEqual([]);

  // A tenant still sees its own alerts only.
  const own = await alerts(api, 50, 1, tenantA);
  expect(own.total).toBe(HOSTILE);
  expect(own.itens.every((alert) => alert.usuarioId === TENANT_A.usuarioId)).toBe(true);
});

test('the triage list: configurations with an open alert first, tenant B’s on the first page, then the rest; a total over every page', async () => {
  const first = await triage(staff, PAGE);
  expect(first.itens.map((item) => item.id)).toContain(WEBHOOK_IDS.b1);
  expect(first.itens.find((item) => item.id === WEBHOOK_IDS.b1)).toMatchObject({
    situacao: { estado: 'circuito-aberto' },
    alerta: { tipo: 'circuito-aberto' },
  });
  // Tenant A's ten seeded configurations, its new ones, and B's one.
  expect(first.total).toBe(10 + HOSTILE + 1);
  const all: TriageItem[] = [];
  for (let pagina = 1; pagina <= Math.ceil(first.total / PAGE); pagina++) all.push(...(await triage(staff, PAGE, pagina)).itens);
  expect(new Set(all.map((item) => item.id)).size).toBe(first.total);
  const alerted = all.map((item) => item.alerta !== null);
  expect(alerted.slice(0, HOSTILE + 1).every(Boolean)).toBe(true);
  expect(alerted.slice(HOSTILE + 1).some(Boolean)).toBe(false);
  expect(all.slice(0, HOSTILE + 1).filter((item) => item.usuarioId === TENANT_A.usuarioId)).toHaveLength(HOSTILE);
});

test('a page outside the bounds is a 400 naming the parameter', async () => {
  for (const [query, field] of [
    ['limite=0', 'limite'],
    ['limite=201', 'limite'],
    ['pagina=0', 'pagina'],
    ['pagina=um', 'pagina'],
  ]) {
    for (const path of [apiPath(routes.listDeliveryAlerts), apiPath(routes.deliveryTriage)]) {
      const answer = await staff.get(`${path}?${query}`);
      expect(answer.status(), `${path}?${query}`).toBe(400);
      expect(((await answer.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toEqual([field]);
    }
  }
});
