import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Delivery health (issue 20 §3) through the API the console reads: attempts hour by hour from the
 * delivery log, the state and the backlog of one configuration, and the triage list, worst first,
 * within the caller's tenancy. A real receiver on 127.0.0.1: one path answers 204, one 503.
 */
test.describe.configure({ mode: 'serial' });

type Health = {
  janela: string;
  horas: { inicio: string; entregues: number; falhas: number; latenciaMediaMs: number | null }[];
  totais: { entregues: number; falhas: number; taxaSucesso: number | null; filtradas?: number };
  situacao: { estado: string; desde: string | null; ate: string | null; devidas: number };
};
type TriageItem = { id: string; usuarioId: string; situacao: { estado: string }; totais: Health['totais']; horas: unknown[] };

let server: RunningServer;
let database: Awaited<ReturnType<typeof privateDatabase>> | undefined;
let receiver: Receiver;
let api: APIRequestContext;
let tenantA: Record<string, string>;
let tenantB: Record<string, string>;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  // A database of its own on PostgreSQL runs: its events fan out to every configuration of the tenant.
  database = await privateDatabase('health');
  receiver.script('/ok', { status: 204 });
  receiver.script('/fora', { status: 503 });
  server = await startServer({
    dataDir: newDataDir('health'),
    env: {
      ...database.env,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,600',
      WEBHOOK_CIRCUIT_FAILURES: '3',
      WEBHOOK_CIRCUIT_OPEN_SECONDS: '600',
    },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
  tenantB = bearer(await tokenFor(api, TENANT_B));
  for (const [headers, id, path] of [
    [tenantA, WEBHOOK_IDS.a1, '/ok'],
    [tenantB, WEBHOOK_IDS.b1, '/fora'],
  ] as const) {
    const saved = await api.put(apiPath(routes.updateWebhookConfiguration, { id }), {
      headers,
      data: { url: receiver.url(path), headers: [], ...FLAGS_OFF, eventoPropostaCancelada: true },
    });
    expect(saved.status()).toBe(200);
  }
  const producer = bearer(await tokenFor(api, PRODUCER));
  for (const tenant of [TENANT_A, TENANT_B]) {
    for (let i = 0; i < 3; i++) {
      const published = await api.post(apiPath(routes.publishEvent), {
        headers: producer,
        data: { tipo: 'eventoPropostaCancelada', usuarioId: tenant.usuarioId, idEvento: `saude-${tenant.clientId}-${i}`, dados: {} },
      });
      expect(published.status()).toBe(202);
    }
  }
  await receiver.waitFor('/ok', 3);
  // Three 503s in a row open b1's circuit: its first three attempts fail, the rest wait.
  await receiver.waitFor('/fora', 3);
});

test.afterAll(async () => {
  await api?.dispose();
  await receiver?.stop();
  await server?.stop();
  await database?.drop();
});

const health = async (id: string, headers: Record<string, string>, query = '') =>
  api.get(`${apiPath(routes.deliveryHealth, { id })}${query}`, { headers });

test('a healthy configuration: every attempt delivered this hour, with the receiver’s answer time, and no backlog', async () => {
  let body: Health | undefined;
  await expect
    .poll(async () => {
      body = (await (await health(WEBHOOK_IDS.a1, tenantA)).json()) as Health;
      return body.totais.entregues;
    })
    .toBe(3);
  expect(body!.janela).toBe('24h');
  expect(body!.horas).toHaveLength(24);
  expect(body!.totais).toEqual({ entregues: 3, falhas: 0, taxaSucesso: 1, filtradas: 0 });
  const current = body!.horas.at(-1)!;
  expect(Date.now() - Date.parse(current.inicio)).toBeLessThan(3_600_000);
  expect(current).toMatchObject({ entregues: 3, falhas: 0 });
  expect(current.latenciaMediaMs).toEqual(expect.any(Number));
  expect(body!.horas.slice(0, -1).every((hour) => hour.entregues + hour.falhas === 0 && hour.latenciaMediaMs === null)).toBe(true);
  expect(body!.situacao).toMatchObject({ estado: 'saudavel', desde: null, devidas: 0 });

  const week = (await (await health(WEBHOOK_IDS.a1, tenantA, '?janela=7d')).json()) as Health;
  expect(week.horas).toHaveLength(168);
  expect(week.totais.entregues).toBe(3);
});

test('a receiver that is down: its failed attempts, its open circuit and until when', async () => {
  let body: Health | undefined;
  // Open, and every 503 the receiver answered recorded: the three that opened the circuit, and any
  // attempt already in flight then, which still ends (as a fourth).
  await expect
    .poll(async () => {
      body = (await (await health(WEBHOOK_IDS.b1, tenantB)).json()) as Health;
      return body.situacao.estado === 'circuito-aberto' && body.totais.falhas === receiver.at('/fora').length;
    })
    .toBe(true);
  expect(body!.totais).toMatchObject({ entregues: 0, taxaSucesso: 0 });
  expect(body!.totais.falhas).toBeGreaterThanOrEqual(3);
  expect(Date.parse(body!.situacao.ate!)).toBeGreaterThan(Date.now());
  expect(Date.parse(body!.situacao.desde!)).toBeLessThanOrEqual(Date.now());
});

test('another tenant’s configuration is a 404, and a bad window a 400 naming janela', async () => {
  expect((await health(WEBHOOK_IDS.b1, tenantA)).status()).toBe(404);
  const bad = await health(WEBHOOK_IDS.a1, tenantA, '?janela=1ano');
  expect(bad.status()).toBe(400);
  expect(bad.headers()['content-type']).toContain('application/problem+json');
  expect(JSON.stringify(await bad.json())).toContain('janela');
});

test('the triage list: the caller’s own configurations, the failing one first', async () => {
  const own = ((await (await api.get(apiPath(routes.deliveryTriage), { headers: tenantB })).json()) as { itens: TriageItem[] }).itens;
  expect(own.map((item) => item.usuarioId.toLowerCase())).toEqual(own.map(() => TENANT_B.usuarioId.toLowerCase()));
  expect(own[0]).toMatchObject({
    id: WEBHOOK_IDS.b1,
    situacao: { estado: 'circuito-aberto' },
    totais: { falhas: receiver.at('/fora').length },
  });
  expect(own[0]!.horas).toHaveLength(24);

  const a = ((await (await api.get(apiPath(routes.deliveryTriage), { headers: tenantA })).json()) as { itens: TriageItem[] }).itens;
  expect(a.map((item) => item.id)).not.toContain(WEBHOOK_IDS.b1);
  expect(a.find((item) => item.id === WEBHOOK_IDS.a1)).toMatchObject({
    situacao: { estado: 'saudavel' },
    totais: { entregues: 3, taxaSucesso: 1 },
  });
});
