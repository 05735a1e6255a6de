import { expect, test, type APIRequestContext } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { Receiver } from '../support/receiver';
import { privateDatabase } from '../support/databases';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Webhook deliveries end to end (issue 10): events published through the real route, delivered by
 * the server's worker to a real receiver on 127.0.0.1, signatures checked with the `standardwebhooks`
 * package (a receiver library this project did not write). A server of its own: receivers on
 * loopback need the development relaxations, and retries a schedule of seconds.
 */
test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let api: APIRequestContext;
let receiver: Receiver;
let tenantA: Record<string, string>;
let producer: Record<string, string>;
let database: Awaited<ReturnType<typeof privateDatabase>>;

const A_CONFIGS = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10'] as const;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  database = await privateDatabase('deliveries');
  server = await startServer({
    dataDir: newDataDir('deliveries'),
    env: {
      ...database.env,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.3,2',
      WEBHOOK_DISABLE_AFTER_HOURS: '0.0005', // 1.8 s
      WEBHOOK_SECRET_OVERLAP_HOURS: '1',
    },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
  producer = bearer(await tokenFor(api, PRODUCER));
  // Every configuration starts pointing at the receiver with all events off; each test turns on its own.
  for (const key of A_CONFIGS) {
    const response = await api.put(webhookPath(WEBHOOK_IDS[key]), {
      headers: tenantA,
      data: { url: receiver.url(`/${key}`), headers: [], ...FLAGS_OFF },
    });
    expect(response.status()).toBe(200);
  }
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await receiver?.stop();
  await database?.drop();
});

function webhookPath(id: string) {
  return apiPath(routes.getWebhookConfiguration, { id });
}

async function enable(key: (typeof A_CONFIGS)[number], flags: Partial<typeof FLAGS_OFF>, extra: Record<string, unknown> = {}) {
  const response = await api.put(webhookPath(WEBHOOK_IDS[key]), { headers: tenantA, data: { ...flags, ...extra } });
  expect(response.status()).toBe(200);
}

async function publish(data: Record<string, unknown>) {
  return api.post(apiPath(routes.publishEvent), { headers: producer, data });
}

async function secretOf(key: (typeof A_CONFIGS)[number]): Promise<string> {
  const response = await api.get(apiPath(routes.getWebhookSecret, { id: WEBHOOK_IDS[key] }), { headers: tenantA });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { segredo: string }).segredo;
}

async function deliveries(key: (typeof A_CONFIGS)[number], query = '') {
  const response = await api.get(`${apiPath(routes.listDeliveries, { id: WEBHOOK_IDS[key] })}${query}`, { headers: tenantA });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: string; status: string; tentativas: number; ultimaResposta: { status: number | null } | null }[];
}

async function waitForStatus(key: (typeof A_CONFIGS)[number], status: string, count = 1) {
  await expect.poll(async () => (await deliveries(key)).filter((d) => d.status === status).length, { timeout: 15_000 }).toBe(count);
}

test('publishing needs the eventos:publicar scope, and a valid body', async () => {
  const denied = await api.post(apiPath(routes.publishEvent), {
    headers: tenantA,
    data: { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_A.usuarioId, dados: {} },
  });
  expect(denied.status()).toBe(403);
  const bad = await publish({ tipo: 'eventoInexistente', usuarioId: 'x', dados: [] });
  expect(bad.status()).toBe(400);
  const fields = ((await bad.json()) as { errors: { field: string }[] }).errors.map((error) => error.field).sort();
  expect(fields).toEqual(['dados', 'tipo', 'usuarioId']);
});

test('fan-out by flag and tenant; exact Standard Webhooks headers; custom headers; the same idEvento is not sent twice', async () => {
  await enable(
    'a1',
    { eventoAvaliacaoSaudeAprovada: true },
    {
      headers: [
        { chave: 'X-Receptor-Chave', valor: 'valor-do-receptor' },
        { chave: 'X-Origem', valor: 'console' },
      ],
    },
  );
  await enable('a2', { eventoPropostaCancelada: true }); // another flag: gets nothing
  // Tenant B's configuration with the flag on: another usuarioId, gets nothing.
  const tenantB = bearer(await tokenFor(api, TENANT_B));
  await api.put(webhookPath(WEBHOOK_IDS.b1), { headers: tenantB, data: { url: receiver.url('/b1'), eventoAvaliacaoSaudeAprovada: true } });

  const published = await publish({
    tipo: 'eventoAvaliacaoSaudeAprovada',
    usuarioId: TENANT_A.usuarioId.toUpperCase(),
    idEvento: 'aval-0001',
    dados: { proposta: 123, beneficiario: 'Maria' },
  });
  expect(published.status()).toBe(202);
  const { id, entregas } = (await published.json()) as { id: string; entregas: number };
  expect(entregas).toBe(1);

  const [request] = await receiver.waitFor('/a1', 1);
  const headers = request!.headers;
  expect(headers['content-type']).toBe('application/json');
  expect(headers['webhook-id']).toMatch(/^msg_[0-9a-z]{29}$/);
  expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
  expect(headers['user-agent']).toContain('IntegrationConsole-Webhooks');
  expect(headers['x-receptor-chave']).toBe('valor-do-receptor');
  expect(headers['x-origem']).toBe('console');
  const verified = new Webhook(await secretOf('a1')).verify(request!.body, headers as Record<string, string>);
  expect(verified).toEqual({
    type: 'avaliacao-saude.aprovada',
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    data: { idEvento: 'aval-0001', usuarioId: TENANT_A.usuarioId, proposta: 123, beneficiario: 'Maria' },
  });
  // A signature with another secret does not verify: the check above means something.
  expect(() =>
    new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request!.body, headers as Record<string, string>),
  ).toThrow();

  const again = await publish({ tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_A.usuarioId, idEvento: 'aval-0001', dados: {} });
  expect(again.status()).toBe(200);
  expect(await again.json()).toEqual({ id, entregas: 1 });
  await waitForStatus('a1', 'entregue');
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(receiver.at('/a1')).toHaveLength(1);
  expect(receiver.at('/a2')).toHaveLength(0);
  expect(receiver.at('/b1')).toHaveLength(0);

  // The log masks what the editor masks (looksSecret): the signature and the key, not X-Origem.
  const [delivery] = await deliveries('a1');
  const detail = await api.get(apiPath(routes.getDelivery, { id: WEBHOOK_IDS.a1, entregaId: delivery!.id }), { headers: tenantA });
  const [attempt] = ((await detail.json()) as { tentativasDetalhadas: { cabecalhos: Record<string, string> }[] }).tentativasDetalhadas;
  expect(attempt!.cabecalhos).toMatchObject({ 'X-Receptor-Chave': '••••••', 'X-Origem': 'console', 'webhook-signature': '••••••' });
  expect(JSON.stringify(attempt!.cabecalhos)).not.toContain('valor-do-receptor');

  // The attempt's log line is the worker's own: not tagged with the publishing request's id
  // (the worker was woken inside that request), and without the payload.
  const findAttemptLine = () =>
    server
      .logs()
      .split('\n')
      .find((line) => line.includes('"webhook.attempt"') && line.includes(String(headers['webhook-id'])));
  await expect.poll(findAttemptLine).toBeDefined();
  const attemptLine = findAttemptLine();
  expect(JSON.parse(attemptLine!)).not.toHaveProperty('requestId');
  expect(attemptLine).not.toContain('Maria');
});

test('a batch is recorded whole: each event fanned out and signed, an ordered configuration gets them in the batch’s order, repeats answer their first event', async () => {
  await enable('a9', { eventoPropostaCancelada: true }, { entregaOrdenada: true });
  await enable('a10', { eventoAvaliacaoSaudeArquivada: true });
  const batch = (eventos: Record<string, unknown>[]) =>
    api.post(apiPath(routes.publishEventBatch), { headers: producer, data: { eventos } });
  const cancelled = (i: number, dados: Record<string, unknown> = { ordem: i }) => ({
    tipo: 'eventoPropostaCancelada',
    usuarioId: TENANT_A.usuarioId,
    idEvento: `lote-${i}`,
    dados,
  });
  const eventos = [
    ...Array.from({ length: 5 }, (_, i) => cancelled(i)),
    { tipo: 'eventoAvaliacaoSaudeArquivada', usuarioId: TENANT_A.usuarioId, dados: { ordem: 5 } },
    cancelled(0, {}), // the batch's own first event again
  ];
  type Outcome = { id: string; entregas: number; repetido: boolean };
  const published = await batch(eventos);
  expect(published.status()).toBe(202);
  const outcomes = ((await published.json()) as { eventos: Outcome[] }).eventos;
  // a2 (the fan-out test's) receives cancellations too; a10 alone archived ones.
  expect(outcomes.map(({ entregas, repetido }) => [entregas, repetido])).toEqual([...Array(5).fill([2, false]), [1, false], [2, true]]);
  expect(outcomes[6]!.id).toBe(outcomes[0]!.id);

  const secret = await secretOf('a9');
  const received = await receiver.waitFor('/a9', 5);
  const order = received.map(
    (request) =>
      (new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as { data: { ordem: number } }).data.ordem,
  );
  expect(order).toEqual([0, 1, 2, 3, 4]);
  await receiver.waitFor('/a10', 1);

  // Every idEvento already published: 200, the first events, nothing sent twice.
  const again = await batch(eventos.slice(0, 5));
  expect(again.status()).toBe(200);
  expect(((await again.json()) as { eventos: Outcome[] }).eventos).toEqual(
    outcomes.slice(0, 5).map((outcome) => ({ ...outcome, repetido: true })),
  );
  // One bad event refuses the batch, naming it by its index; the good one beside it is not recorded.
  const bad = await batch([cancelled(7), { ...cancelled(8), usuarioId: 'x' }]);
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toEqual(['eventos.1.usuarioId']);
  expect((await batch([])).status()).toBe(400);
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(receiver.at('/a9')).toHaveLength(5);
  expect((await deliveries('a9', '?evento=lote-7')).length).toBe(0);
});

test('a 500 is retried with the same webhook-id until a 200; the log shows every attempt', async () => {
  await enable('a3', { eventoAvaliacaoSaudeArquivada: true });
  receiver.script('/a3', { status: 500, body: 'indisponível' }, { status: 200, body: 'ok' });
  expect((await publish({ tipo: 'eventoAvaliacaoSaudeArquivada', usuarioId: TENANT_A.usuarioId, dados: { n: 1 } })).status()).toBe(202);
  const requests = await receiver.waitFor('/a3', 2);
  expect(requests[0]!.headers['webhook-id']).toBe(requests[1]!.headers['webhook-id']);
  await waitForStatus('a3', 'entregue');
  const [delivery] = await deliveries('a3');
  expect(delivery).toMatchObject({ tentativas: 2, ultimaResposta: { status: 200 } });

  const detail = await api.get(apiPath(routes.getDelivery, { id: WEBHOOK_IDS.a3, entregaId: delivery!.id }), { headers: tenantA });
  const body = (await detail.json()) as { tentativasDetalhadas: { status: number; corpo: string; erro: string | null }[] };
  expect(body.tentativasDetalhadas.map((attempt) => [attempt.status, attempt.corpo, attempt.erro])).toEqual([
    [500, 'indisponível', 'status-http'],
    [200, 'ok', null],
  ]);
});

test('a 429 with Retry-After delays the next attempt at least that long', async () => {
  await enable('a4', { eventoAvaliacaoSaudeDesarquivada: true });
  receiver.script('/a4', { status: 429, headers: { 'Retry-After': '1' } }, { status: 204 });
  expect((await publish({ tipo: 'eventoAvaliacaoSaudeDesarquivada', usuarioId: TENANT_A.usuarioId, dados: {} })).status()).toBe(202);
  const [first, second] = await receiver.waitFor('/a4', 2);
  // The schedule's first step is 0.3 s; Retry-After asked for 1 s.
  expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
});

test('a 410 disables the configuration; its events are skipped, then recovered once it is enabled again', async () => {
  await enable('a5', { eventoAvaliacaoSaudeAguardandoAprovacao: true });
  receiver.script('/a5', { status: 410 }, { status: 200 });
  const event = { tipo: 'eventoAvaliacaoSaudeAguardandoAprovacao', usuarioId: TENANT_A.usuarioId, dados: {} };
  const since = new Date(Date.now() - 1000).toISOString();
  expect((await publish(event)).status()).toBe(202);
  await waitForStatus('a5', 'falhou');
  const config = await (await api.get(webhookPath(WEBHOOK_IDS.a5), { headers: tenantA })).json();
  expect(config).toMatchObject({ ativo: false, desativacao: { motivo: 'receptor-410' } });

  expect((await publish(event)).status()).toBe(202);
  await waitForStatus('a5', 'ignorada');
  expect(receiver.at('/a5')).toHaveLength(1);

  await enable('a5', {}, { ativo: true });
  const recovery = await api.post(apiPath(routes.recoverDeliveries, { id: WEBHOOK_IDS.a5 }), {
    headers: tenantA,
    data: { desde: since },
  });
  expect(recovery.status()).toBe(202);
  expect(await recovery.json()).toEqual({ reenviadas: 2 });
  await waitForStatus('a5', 'entregue', 2);
});

test('deliveries failing for the whole disable window disable the configuration', async () => {
  await enable('a6', { eventoPropostaCancelada: true });
  receiver.script('/a6', { status: 503 });
  expect((await publish({ tipo: 'eventoPropostaCancelada', usuarioId: TENANT_A.usuarioId, dados: {} })).status()).toBe(202);
  await expect
    .poll(async () => ((await (await api.get(webhookPath(WEBHOOK_IDS.a6), { headers: tenantA })).json()) as { ativo: boolean }).ativo, {
      timeout: 15_000,
    })
    .toBe(false);
  const config = await (await api.get(webhookPath(WEBHOOK_IDS.a6), { headers: tenantA })).json();
  expect(config).toMatchObject({ desativacao: { motivo: 'falhas-consecutivas' } });
});

test('a test event goes to that configuration alone; a redelivery sends the same webhook-id again', async () => {
  receiver.script('/a7', { status: 200 });
  const created = await api.post(apiPath(routes.sendTestEvent, { id: WEBHOOK_IDS.a7 }), { headers: tenantA });
  expect(created.status()).toBe(202);
  const { id } = (await created.json()) as { id: string };
  const [first] = await receiver.waitFor('/a7', 1);
  expect(first!.headers['webhook-id']).toBe(id);
  expect(JSON.parse(first!.body)).toMatchObject({ type: 'webhook.teste', data: { usuarioId: TENANT_A.usuarioId } });
  // The receiver has answered; the outcome is recorded a moment later (until then a redelivery is 409).
  await waitForStatus('a7', 'entregue');

  const again = await api.post(apiPath(routes.redeliver, { id: WEBHOOK_IDS.a7, entregaId: id }), { headers: tenantA });
  expect(again.status()).toBe(202);
  const [, second] = await receiver.waitFor('/a7', 2);
  expect(second!.headers['webhook-id']).toBe(id);
});

test('after a rotation both the new and the previous secret verify, during the overlap', async () => {
  const previous = await secretOf('a8');
  const rotated = await api.post(apiPath(routes.rotateWebhookSecret, { id: WEBHOOK_IDS.a8 }), { headers: tenantA });
  expect(rotated.status()).toBe(200);
  const { segredo } = (await rotated.json()) as { segredo: string };
  expect(segredo).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(segredo).not.toBe(previous);
  expect(await secretOf('a8')).toBe(segredo);

  await api.post(apiPath(routes.sendTestEvent, { id: WEBHOOK_IDS.a8 }), { headers: tenantA });
  const [request] = await receiver.waitFor('/a8', 1);
  const headers = request!.headers as Record<string, string>;
  expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
  for (const secret of [segredo, previous])
    expect(new Webhook(secret).verify(request!.body, headers)).toMatchObject({ type: 'webhook.teste' });
});

test('another tenant gets 404 on every delivery route, as for an unknown id', async () => {
  const tenantB = bearer(await tokenFor(api, TENANT_B));
  const [delivery] = await deliveries('a7');
  const id = WEBHOOK_IDS.a7;
  const attempts = [
    api.get(apiPath(routes.listDeliveries, { id }), { headers: tenantB }),
    api.get(apiPath(routes.getDelivery, { id, entregaId: delivery!.id }), { headers: tenantB }),
    api.post(apiPath(routes.redeliver, { id, entregaId: delivery!.id }), { headers: tenantB }),
    api.post(apiPath(routes.sendTestEvent, { id }), { headers: tenantB }),
    api.get(apiPath(routes.getWebhookSecret, { id }), { headers: tenantB }),
    api.post(apiPath(routes.rotateWebhookSecret, { id }), { headers: tenantB }),
    api.post(apiPath(routes.recoverDeliveries, { id }), { headers: tenantB, data: { desde: new Date().toISOString() } }),
  ];
  for (const response of await Promise.all(attempts)) expect(response.status(), response.url()).toBe(404);
  // The producer may publish, not read deliveries.
  expect((await api.get(apiPath(routes.listDeliveries, { id }), { headers: producer })).status()).toBe(403);
});
