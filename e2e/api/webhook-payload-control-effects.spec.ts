import { expect, test, type APIRequestContext } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, RESERVE_PATH, reservationBody, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { Receiver } from '../support/receiver';
import { withDatabaseAt } from '../support/server-db';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PROCEDURES, PRODUCER, slotOf, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Payload control's effects beyond the bench (issue 46): every change is in the audit trail with
 * before and after; a filter on a scheduling event's field lets only matching events through (the
 * events the product publishes when a tenant reserves a slot); and a transformation that keeps
 * failing opens the configuration's circuit as failed sends do. Through the real routes, the
 * server's worker and a real receiver on 127.0.0.1.
 */
test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let api: APIRequestContext;
let receiver: Receiver;
let tenantA: Record<string, string>;
let database: Awaited<ReturnType<typeof privateDatabase>>;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  database = await privateDatabase('payload_effects');
  server = await startServer({
    dataDir: newDataDir('payload-effects'),
    env: {
      ...database.env,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,600',
      WEBHOOK_CIRCUIT_FAILURES: '3',
      // Once open, no probe within the spec: what it sees is the open circuit, not a probe's outcome.
      WEBHOOK_CIRCUIT_OPEN_SECONDS: '600',
      WEBHOOK_CIRCUIT_PROBE_SECONDS: '600',
    },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await receiver?.stop();
  await database?.drop();
});

const configPath = (id: string) => apiPath(routes.getWebhookConfiguration, { id });

async function put(id: string, data: Record<string, unknown>) {
  const response = await api.put(configPath(id), { headers: tenantA, data });
  expect(response.status(), await response.text()).toBe(200);
}

type Delivery = {
  eventoId: string;
  status: string;
  tentativas: number;
  aguardando: string | null;
  ultimaResposta: { erro: string | null; corpo: string | null } | null;
};

async function deliveries(id: string): Promise<Delivery[]> {
  const response = await api.get(apiPath(routes.listDeliveries, { id }), { headers: tenantA });
  expect(response.status()).toBe(200);
  return (await response.json()) as Delivery[];
}

test('a payload-control change is audited with the filter, fields and code before and after', async () => {
  const id = WEBHOOK_IDS.a1;
  const first = {
    filtro: { 'data.plano': { $in: ['OURO'] } },
    campos: [{ ponteiro: '/data/beneficiario/cpf', acao: 'mascarar', visiveis: 2 }],
    transformacao: 'function handler(w) { return { payload: w.payload }; }',
  };
  await put(id, { url: receiver.url('/auditada'), headers: [], ...FLAGS_OFF, eventoAvaliacaoSaudeAprovada: true, ...first });
  const second = { filtro: { 'data.plano': 'PRATA' }, campos: null, transformacao: null };
  await put(id, second);

  const rows = await withDatabaseAt({ dataDir: server.dataDir, databaseUrl: database.env.DATABASE_URL }, (db) =>
    db('audit_events')
      .where({ target: `webhook:${id}`, action: 'webhook.update' })
      .orderBy([{ column: 'at_ms' }, { column: 'id' }])
      .select('before_json', 'after_json', 'outcome', 'actor_id'),
  );
  const trail = (rows as { before_json: string; after_json: string; outcome: string; actor_id: string }[]).map((row) => ({
    before: JSON.parse(row.before_json) as Record<string, unknown>,
    after: JSON.parse(row.after_json) as Record<string, unknown>,
    outcome: row.outcome,
    actor: row.actor_id,
  }));
  expect(trail).toHaveLength(2);
  expect(trail[0]).toMatchObject({
    outcome: 'updated',
    actor: TENANT_A.clientId,
    before: { filtro: null, campos: [], transformacao: null },
    after: first,
  });
  expect(trail[1]).toMatchObject({ before: first, after: { filtro: second.filtro, campos: [], transformacao: null } });
});

test('a filter on a scheduling event’s data.nrSeqProcInterno lets only the matching reservation’s event through', async () => {
  const id = WEBHOOK_IDS.a2;
  await put(id, {
    url: receiver.url('/agenda'),
    headers: [],
    ...FLAGS_OFF,
    eventoAgendamentoReservado: true,
    filtro: { 'data.nrSeqProcInterno': PROCEDURES.raioX },
  });
  const secret = ((await (await api.get(apiPath(routes.getWebhookSecret, { id }), { headers: tenantA })).json()) as { segredo: string })
    .segredo;
  // The tenant reserves two slots: an ultrasound, then an X-ray; the product publishes agendamento.reservado for each.
  const reserved: Record<number, string> = {};
  for (const [index, nrSeqProcInterno] of [PROCEDURES.ultrassom, PROCEDURES.raioX].entries()) {
    const response = await api.post(RESERVE_PATH, {
      headers: tenantA,
      data: reservationBody({ nrSeqAgenda: slotOf(936, index), nrSeqProcInterno, cdPessoaFisica: 936_000 + index }),
    });
    const answer = (await response.json()) as { CODIGO_P: string; TOKEN_RESERVA_P: string };
    expect(answer.CODIGO_P, JSON.stringify(answer)).toBe('0');
    reserved[nrSeqProcInterno] = answer.TOKEN_RESERVA_P;
  }

  await expect
    .poll(async () => (await deliveries(id)).map((delivery) => delivery.status).sort(), { timeout: 20_000 })
    .toEqual(['entregue', 'filtrada']);
  const arrived = receiver.at('/agenda');
  expect(arrived).toHaveLength(1);
  const message = new Webhook(secret).verify(arrived[0]!.body, arrived[0]!.headers as Record<string, string>) as {
    type: string;
    data: { nrSeqProcInterno: number; nrSeqAgenda: number; tokenReserva: string };
  };
  expect(message).toMatchObject({
    type: 'agendamento.reservado',
    data: { nrSeqProcInterno: PROCEDURES.raioX, nrSeqAgenda: slotOf(936, 1), tokenReserva: reserved[PROCEDURES.raioX] },
  });
  // The ultrasound's event is in the log as filtered, never attempted.
  const filtered = (await deliveries(id)).find((delivery) => delivery.status === 'filtrada')!;
  expect(filtered.tentativas).toBe(0);
});

test('a transformation that keeps failing opens the circuit, as failed sends do: the rest wait, nothing reaches the receiver', async () => {
  const id = WEBHOOK_IDS.a3;
  await put(id, {
    url: receiver.url('/quebrada'),
    headers: [],
    ...FLAGS_OFF,
    eventoPropostaCancelada: true,
    transformacao: 'function handler() { throw new Error("sem mapeamento para este plano"); }',
  });
  const producer = bearer(await tokenFor(api, PRODUCER));
  for (let i = 0; i < 4; i++) {
    const published = await api.post(apiPath(routes.publishEvent), {
      headers: producer,
      data: { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_A.usuarioId, idEvento: `quebrada-${i}`, dados: { proposta: i } },
    });
    expect(published.status()).toBe(202);
  }
  type Circuit = { estado: string; falhasSeguidas: number } | null;
  const circuit = async () => ((await (await api.get(configPath(id), { headers: tenantA })).json()) as { circuito: Circuit }).circuito;
  await expect.poll(async () => (await circuit())?.estado, { timeout: 20_000 }).toBe('aberto');
  expect((await circuit())!.falhasSeguidas).toBeGreaterThanOrEqual(3);

  // Every pending delivery now waits on the circuit; each attempt made was a transformacao failure with the code's reason.
  const list = await deliveries(id);
  expect(list).toHaveLength(4);
  expect(list.every((delivery) => delivery.status === 'pendente' && delivery.aguardando === 'circuito-aberto')).toBe(true);
  const attempted = list.filter((delivery) => delivery.tentativas > 0);
  expect(attempted.reduce((sum, delivery) => sum + delivery.tentativas, 0)).toBeGreaterThanOrEqual(3);
  for (const delivery of attempted) {
    expect(delivery.ultimaResposta).toMatchObject({ erro: 'transformacao' });
    expect(delivery.ultimaResposta!.corpo).toContain('sem mapeamento para este plano');
  }
  expect(receiver.at('/quebrada')).toHaveLength(0);
  // The health the console shows says the same: paused behind an open circuit, the failures counted.
  const health = (await (await api.get(apiPath(routes.deliveryHealth, { id }), { headers: tenantA })).json()) as {
    situacao: { estado: string };
    totais: { falhas: number; entregues: number };
  };
  expect(health.situacao.estado).toBe('circuito-aberto');
  expect(health.totais).toMatchObject({ entregues: 0 });
  expect(health.totais.falhas).toBeGreaterThanOrEqual(3);
});
