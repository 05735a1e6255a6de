import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Delivery isolation (issue 18), through real receivers on 127.0.0.1: one partner's hung or slow
 * receiver never delays another's notifications; a receiver that is down opens its circuit (its
 * deliveries wait, visibly) and one probe closes it; a delivery whose attempt is in flight is not
 * sent again at the same time. Latency is asserted loosely here and measured by
 * `npm run bench:deliveries -- --only isolation`.
 */
const relaxed = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
type Flag = keyof typeof FLAGS_OFF;

function configPath(id: string) {
  return apiPath(routes.getWebhookConfiguration, { id });
}

/** Points a configuration at `url` with exactly one event flag on, so each event of that type makes one delivery. */
async function pointAt(api: APIRequestContext, tenant: typeof TENANT_A, id: string, url: string, flag: Flag) {
  const response = await api.put(configPath(id), {
    headers: bearer(await tokenFor(api, tenant)),
    data: { url, headers: [], ...FLAGS_OFF, [flag]: true },
  });
  expect(response.status()).toBe(200);
}

async function publish(api: APIRequestContext, producer: Record<string, string>, tenant: typeof TENANT_A, tipo: Flag, idEvento: string) {
  const response = await api.post(apiPath(routes.publishEvent), {
    headers: producer,
    data: { tipo, usuarioId: tenant.usuarioId, idEvento, dados: { idEvento } },
  });
  expect(response.status()).toBe(202);
  return ((await response.json()) as { id: string }).id;
}

test('a hung receiver and a slow one do not delay another tenant’s deliveries (shipped delivery settings)', async ({ playwright }) => {
  test.setTimeout(90_000);
  const receiver = await new Receiver().start();
  receiver.script('/pendurado', { status: 204, hang: true });
  receiver.script('/lento', { status: 204, delayMs: 2000 });
  const database = await privateDatabase('isolation');
  // Only the relaxations for a loopback receiver: timeout (15 s), concurrency (16) and the
  // per-configuration cap (4) are the shipped defaults. The 212 events below go out back to back,
  // near the producer's default rate limit (200 a second) on a fast machine: that limit is not what
  // this spec is about (tenant-quotas.spec.ts), so it is lifted.
  const server = await startServer({
    dataDir: newDataDir('isolation'),
    env: { ...relaxed, ...database.env, MAX_EVENTS_PER_SECOND: '100000' },
  });
  try {
    const api = await playwright.request.newContext({ baseURL: server.url });
    const producer = bearer(await tokenFor(api, PRODUCER));
    await pointAt(api, TENANT_A, WEBHOOK_IDS.a1, receiver.url('/pendurado'), 'eventoAvaliacaoSaudeArquivada');
    await pointAt(api, TENANT_A, WEBHOOK_IDS.a2, receiver.url('/lento'), 'eventoAvaliacaoSaudeDesarquivada');
    await pointAt(api, TENANT_B, WEBHOOK_IDS.b1, receiver.url('/saudavel'), 'eventoPropostaCancelada');
    for (let i = 0; i < 200; i++) await publish(api, producer, TENANT_A, 'eventoAvaliacaoSaudeArquivada', `pendurado-${i}`);
    for (let i = 0; i < 12; i++) await publish(api, producer, TENANT_A, 'eventoAvaliacaoSaudeDesarquivada', `lento-${i}`);
    // Before the fix all 16 slots sat on the hung receiver for 15 s at a time: none of these arrived within 60 s.
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = Date.now();
      await publish(api, producer, TENANT_B, 'eventoPropostaCancelada', `saudavel-${i}`);
      const [arrived] = (await receiver.waitFor('/saudavel', i + 1, 10_000)).slice(i);
      latencies.push(arrived!.at - sent);
    }
    expect(Math.max(...latencies)).toBeLessThan(5_000);
    // 12 answers of 2 s each, 4 at a time: about 6 s, never behind the hung receiver's backlog.
    await receiver.waitFor('/lento', 12, 30_000);
    // The hung receiver's attempts end only by their 15 s timeout: what reached it in its first 14 s
    // was in flight at once, and that is at most the per-configuration cap.
    const hung = receiver.at('/pendurado');
    expect(hung.length).toBeGreaterThan(0);
    expect(hung.filter((request) => request.at - hung[0]!.at < 14_000).length).toBeLessThanOrEqual(4);
    await api.dispose();
  } finally {
    await receiver.stop();
    await server.stop();
    await database.drop();
  }
});

test.describe('circuit breaker and redelivery', () => {
  test.describe.configure({ mode: 'serial' });
  let server: RunningServer;
  let api: APIRequestContext;
  let receiver: Receiver;
  let database: Awaited<ReturnType<typeof privateDatabase>>;
  let producer: Record<string, string>;
  let tenantB: Record<string, string>;

  test.beforeAll(async ({ playwright }) => {
    receiver = await new Receiver().start();
    database = await privateDatabase('circuit');
    server = await startServer({
      dataDir: newDataDir('circuit'),
      env: {
        ...relaxed,
        ...database.env,
        WEBHOOK_CIRCUIT_FAILURES: '3',
        WEBHOOK_CIRCUIT_OPEN_SECONDS: '3',
        WEBHOOK_ENDPOINT_CONCURRENCY: '1',
        WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1,0.1,0.1',
        WEBHOOK_TIMEOUT_MS: '3000',
      },
    });
    api = await playwright.request.newContext({ baseURL: server.url });
    producer = bearer(await tokenFor(api, PRODUCER));
    tenantB = bearer(await tokenFor(api, TENANT_B));
  });

  test.afterAll(async () => {
    await api?.dispose();
    await receiver?.stop();
    await server?.stop();
    await database?.drop();
  });

  const deliveries = async (query = '') =>
    (await (await api.get(`${apiPath(routes.listDeliveries, { id: WEBHOOK_IDS.b1 })}${query}`, { headers: tenantB })).json()) as {
      id: string;
      status: string;
      eventoId: string;
      idEvento: string;
      aguardando: string | null;
      emAndamento: boolean;
      tentativas: number;
    }[];

  test('consecutive outages open the circuit: deliveries wait, visibly, and one probe closes it', async () => {
    test.setTimeout(60_000);
    receiver.script('/fora', { status: 503 }, { status: 503 }, { status: 503 }, { status: 204 });
    await pointAt(api, TENANT_B, WEBHOOK_IDS.b1, receiver.url('/fora'), 'eventoPropostaCancelada');
    for (let i = 0; i < 4; i++) await publish(api, producer, TENANT_B, 'eventoPropostaCancelada', `fora-${i}`);
    await receiver.waitFor('/fora', 3);
    const opened = Date.now();
    type Circuit = { estado: string; falhasSeguidas: number; proximaTentativa: string } | null;
    const circuit = async () =>
      ((await (await api.get(configPath(WEBHOOK_IDS.b1), { headers: tenantB })).json()) as { circuito: Circuit }).circuito;
    // The third answer has arrived; its outcome is recorded a moment later.
    await expect.poll(async () => (await circuit())?.estado).toBe('aberto');
    const open = await circuit();
    expect(open).toMatchObject({ estado: 'aberto', falhasSeguidas: 3 });
    expect(Date.parse(open!.proximaTentativa)).toBeGreaterThan(opened);
    const waiting = await deliveries();
    expect(waiting).toHaveLength(4);
    expect(waiting.every((delivery) => delivery.status === 'pendente' && delivery.aguardando === 'circuito-aberto')).toBe(true);
    // Open for 3 s (±20 %, so at least 2.4 s): nothing is attempted meanwhile, although every delivery is due.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, opened + 1500 - Date.now())));
    expect(receiver.at('/fora')).toHaveLength(3);
    // Then one probe; its 204 closes the circuit and the rest follow.
    await receiver.waitFor('/fora', 7, 15_000);
    expect(receiver.at('/fora')[3]!.at - opened).toBeGreaterThanOrEqual(2000);
    await expect.poll(async () => (await deliveries()).filter((delivery) => delivery.status === 'entregue').length).toBe(4);
    const closed = (await (await api.get(configPath(WEBHOOK_IDS.b1), { headers: tenantB })).json()) as { circuito: unknown };
    expect(closed.circuito).toBeNull();
    await expect.poll(() => server.logs()).toContain('"event":"webhook.circuit_opened"');
    await expect.poll(() => server.logs()).toContain('"event":"webhook.circuit_closed"');
    expect(receiver.at('/fora')).toHaveLength(7);
  });

  test('a redelivery while an attempt is in flight answers 409; once it ends it is sent again; the log finds it by evt_ id', async () => {
    receiver.script('/demorado', { status: 204, delayMs: 1500 });
    await pointAt(api, TENANT_B, WEBHOOK_IDS.b1, receiver.url('/demorado'), 'eventoPropostaCancelada');
    const eventId = await publish(api, producer, TENANT_B, 'eventoPropostaCancelada', 'demorado-1');
    expect(eventId).toMatch(/^evt_/);
    // The request has arrived; its answer takes 1.5 s.
    await receiver.waitFor('/demorado', 1);
    const [delivery] = await deliveries(`?evento=${eventId}`);
    expect(delivery).toMatchObject({ eventoId: eventId, idEvento: 'demorado-1', emAndamento: true });
    const redeliver = apiPath(routes.redeliver, { id: WEBHOOK_IDS.b1, entregaId: delivery!.id });
    const refused = await api.post(redeliver, { headers: tenantB });
    expect(refused.status()).toBe(409);
    expect(refused.headers()['content-type']).toContain('application/problem+json');
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/in progress/);
    await expect.poll(async () => (await deliveries('?evento=demorado-1'))[0]?.status).toBe('entregue');
    expect((await api.post(redeliver, { headers: tenantB })).status()).toBe(202);
    await receiver.waitFor('/demorado', 2);
    await expect.poll(async () => (await deliveries(`?evento=${eventId}`))[0]?.tentativas).toBe(2);
    // Exactly once at a time: two requests with the same webhook-id, the second after the first was answered.
    const [first, second] = receiver.at('/demorado');
    expect(first!.headers['webhook-id']).toBe(second!.headers['webhook-id']);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1400);
    expect(await deliveries('?evento=outro-evento')).toEqual([]);
  });
});
