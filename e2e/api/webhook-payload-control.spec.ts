import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import amqp from 'amqplib';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Webhook } from 'standardwebhooks';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { issueLink, portalSession } from '../support/portal';
import { Receiver } from '../support/receiver';
import { PORTAL_API_PREFIX } from '@/lib/portal/cookie';
import { privateDatabase } from '../support/databases';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Payload control end to end (issue 46): content filters at publish, field minimisation and
 * sandboxed transformations at send, through the real routes, the server's worker and a real
 * receiver on 127.0.0.1, bodies checked with the `standardwebhooks` package; and hostile code that
 * fails only its own deliveries while another tenant's events still arrive.
 */
test.describe.configure({ mode: 'serial' });

let server: RunningServer;
let api: APIRequestContext;
let receiver: Receiver;
let tenantA: Record<string, string>;
let tenantB: Record<string, string>;
let producer: Record<string, string>;
let database: Awaited<ReturnType<typeof privateDatabase>>;

const A_CONFIGS = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10'] as const;
type Key = (typeof A_CONFIGS)[number] | 'b1';

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  database = await privateDatabase('payload');
  server = await startServer({
    dataDir: newDataDir('payload'),
    env: {
      ...database.env,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.3,600',
      MAX_WEBHOOKS_PER_TENANT: '100',
      MAX_EVENTS_PER_SECOND: '1000',
    },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
  tenantB = bearer(await tokenFor(api, TENANT_B));
  producer = bearer(await tokenFor(api, PRODUCER));
  for (const key of A_CONFIGS) await put(key, { url: receiver.url(`/${key}`), headers: [], ...FLAGS_OFF });
  await put('b1', { url: receiver.url('/b1'), headers: [], ...FLAGS_OFF });
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await receiver?.stop();
  await database?.drop();
});

const headersOf = (key: Key) => (key === 'b1' ? tenantB : tenantA);
const configPath = (key: Key) => apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS[key] });

async function put(key: Key, data: Record<string, unknown>) {
  const response = await api.put(configPath(key), { headers: headersOf(key), data });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

async function publish(usuarioId: string, dados: Record<string, unknown>, tipo = 'eventoAvaliacaoSaudeAprovada') {
  const response = await api.post(apiPath(routes.publishEvent), { headers: producer, data: { tipo, usuarioId, dados } });
  expect(response.status()).toBe(202);
  return (await response.json()) as { id: string; entregas: number };
}

type Delivery = {
  id: string;
  eventoId: string;
  status: string;
  tentativas: number;
  ultimaResposta: { corpo: string | null; erro: string | null } | null;
};

async function deliveries(key: Key, query = ''): Promise<Delivery[]> {
  const response = await api.get(`${apiPath(routes.listDeliveries, { id: WEBHOOK_IDS[key] })}${query}`, { headers: headersOf(key) });
  expect(response.status()).toBe(200);
  return (await response.json()) as Delivery[];
}

async function secretOf(key: Key): Promise<string> {
  const response = await api.get(apiPath(routes.getWebhookSecret, { id: WEBHOOK_IDS[key] }), { headers: headersOf(key) });
  return ((await response.json()) as { segredo: string }).segredo;
}

async function bench(key: Key, data: Record<string, unknown>) {
  return api.post(apiPath(routes.testPayloadControl, { id: WEBHOOK_IDS[key] }), { headers: headersOf(key), data });
}

const MESSAGE = {
  type: 'avaliacao-saude.aprovada',
  timestamp: '2026-11-28T10:00:00.000Z',
  data: {
    idEvento: 'e-1',
    usuarioId: TENANT_A.usuarioId,
    valor: 120,
    plano: 'OURO',
    beneficiario: { nome: 'Maria', cpf: '12345678901' },
    exames: [
      { codigo: 'HEMO', valor: 10 },
      { codigo: 'GLIC', valor: 50 },
    ],
    tags: ['urgente', 'retorno'],
  },
};

test('a filter, field rules or code that would not work are refused at save, naming the field and the faulty part', async () => {
  const bad = await api.put(configPath('a1'), { headers: tenantA, data: { filtro: { data: { valor: { $greater: 1 } } } } });
  expect(bad.status()).toBe(400);
  const problem = (await bad.json()) as { errors: { field: string; pointer: string; code: string; message: string }[] };
  expect(problem.errors).toEqual([
    expect.objectContaining({
      field: 'filtro.data.valor.$greater',
      pointer: '#/filtro/data/valor/$greater',
      code: 'filterUnknownOperator',
    }),
  ]);
  expect(problem.errors[0]!.message).toContain('$greater');

  const operand = await api.put(configPath('a1'), {
    headers: tenantA,
    data: { filtro: { $or: [{ plano: 'OURO' }, { valor: { $in: 3 } }] } },
  });
  expect(((await operand.json()) as { errors: { pointer: string; code: string }[] }).errors).toEqual([
    expect.objectContaining({ pointer: '#/filtro/$or/1/valor/$in', code: 'filterExpectsValues' }),
  ]);

  const fields = await api.put(configPath('a1'), {
    headers: tenantA,
    data: {
      campos: [
        { ponteiro: 'data/cpf', acao: 'remover' },
        { ponteiro: '/type', acao: 'mascarar' },
      ],
    },
  });
  expect(fields.status()).toBe(400);
  const fieldErrors = ((await fields.json()) as { errors: { field: string; code: string }[] }).errors.map((e) => `${e.field}:${e.code}`);
  expect(fieldErrors.sort()).toEqual(['campos.0.ponteiro:fieldPointer', 'campos.1.ponteiro:fieldEnvelope']);

  for (const code of ['function handler( {', 'function outra() { return null; }', 'while (true) {}']) {
    const refused = await api.put(configPath('a1'), { headers: tenantA, data: { transformacao: code } });
    expect(refused.status()).toBe(400);
    const body = (await refused.json()) as { errors: { field: string; code: string }[]; detail: string };
    expect(body.errors).toEqual([expect.objectContaining({ field: 'transformacao', code: 'transformInvalid' })]);
    expect(body.detail).toMatch(/^(compilacao|sem-handler|tempo-esgotado)/);
  }
});

test('the saved filter, fields and code are answered by the GET, seen but not changed by a read-only portal session, and null removes them', async () => {
  const control = {
    filtro: { 'data.plano': 'OURO' },
    campos: [{ ponteiro: '/data/beneficiario/cpf', acao: 'mascarar', visiveis: 2 }],
    transformacao: 'function handler(w) { return { payload: w.payload }; }',
  };
  const saved = await put('a10', control);
  expect(saved).toMatchObject(control);
  const read = await api.get(configPath('a10'), { headers: tenantA });
  expect(await read.json()).toMatchObject(control);
  // A read-only portal session sees them, and can neither change nor try them.
  const readOnly = await portalSession(server.url, await issueLink(api, tenantA, { somenteLeitura: true }));
  const seen = await api.get(`${PORTAL_API_PREFIX}${configPath('a10')}`, { headers: readOnly.headers });
  expect(await seen.json()).toMatchObject(control);
  const change = await api.put(`${PORTAL_API_PREFIX}${configPath('a10')}`, { headers: readOnly.headers, data: { filtro: null } });
  expect(change.status()).toBe(403);
  const trial = await api.post(`${PORTAL_API_PREFIX}${apiPath(routes.testPayloadControl, { id: WEBHOOK_IDS.a10 })}`, {
    headers: readOnly.headers,
    data: {},
  });
  expect(trial.status()).toBe(403);
  expect(await (await api.get(configPath('a10'), { headers: tenantA })).json()).toMatchObject(control);
  const removed = await put('a10', { filtro: null, campos: null, transformacao: null });
  expect(removed).toMatchObject({ filtro: null, campos: [], transformacao: null });
});

test('the bench applies each operator, nested paths and lists by any element, with the engine’s own code', async () => {
  const cases: [unknown, boolean][] = [
    [{ type: 'avaliacao-saude.aprovada' }, true],
    [{ 'data.plano': { $eq: 'OURO' } }, true],
    [{ data: { plano: { $neq: 'OURO' } } }, false],
    [{ 'data.plano': { $in: ['PRATA', 'OURO'] } }, true],
    [{ 'data.plano': { $nin: ['OURO'] } }, false],
    [{ 'data.valor': { $gt: 100 } }, true],
    [{ 'data.valor': { $gte: 121 } }, false],
    [{ 'data.valor': { $lt: 121 } }, true],
    [{ 'data.valor': { $lte: 119 } }, false],
    [{ 'data.beneficiario.cpf': { $exist: true } }, true],
    [{ 'data.beneficiario.rg': { $exist: true } }, false],
    [{ type: { $startsWith: 'avaliacao-saude.' } }, true],
    [{ $and: [{ 'data.plano': 'OURO' }, { 'data.valor': { $gt: 200 } }] }, false],
    [{ $or: [{ 'data.plano': 'PRATA' }, { 'data.valor': { $gt: 100 } }] }, true],
    [{ $not: { 'data.plano': 'OURO' } }, false],
    [{ 'data.tags': 'retorno' }, true],
    [{ 'data.exames.codigo': 'GLIC' }, true],
    [{ 'data.exames': { codigo: 'HEMO', valor: { $gt: 20 } } }, false],
    [{ 'data.exames': { codigo: 'GLIC', valor: { $gt: 20 } } }, true],
  ];
  for (const [filtro, passa] of cases) {
    const response = await bench('a1', { mensagem: MESSAGE, filtro });
    expect(response.status(), JSON.stringify(filtro)).toBe(200);
    expect(((await response.json()) as { filtro: { passa: boolean } }).filtro.passa, JSON.stringify(filtro)).toBe(passa);
  }

  const shaped = await bench('a1', {
    tipo: 'eventoPropostaCancelada',
    campos: [
      { ponteiro: '/data/beneficiario', acao: 'manter' },
      { ponteiro: '/data/beneficiario/cpf', acao: 'mascarar', visiveis: 2 },
    ],
    transformacao:
      'function handler(w) { return { payload: { evento: w.type, nome: w.payload.data.beneficiario.nome, cpf: w.payload.data.beneficiario.cpf }, headers: { "X-Evento": w.type } }; }',
  });
  expect(shaped.status()).toBe(200);
  const result = (await shaped.json()) as Record<string, unknown>;
  expect(result.minimizado).toEqual({
    type: 'proposta.cancelada',
    timestamp: expect.any(String),
    data: {
      beneficiario: { nome: 'Maria da Silva', cpf: '••••••••01', dataNascimento: '1980-04-12', email: 'maria@example.com' },
    },
  });
  expect(result.transformacao).toEqual({
    resultado: 'enviar',
    payload: { evento: 'proposta.cancelada', nome: 'Maria da Silva', cpf: '••••••••01' },
    cabecalhos: { 'X-Evento': 'proposta.cancelada' },
  });
  expect(result.campos).toContain('/data/beneficiario/cpf');

  const failing = await bench('a1', { mensagem: MESSAGE, transformacao: 'function handler() { for (;;) {} }' });
  expect(await failing.json()).toMatchObject({
    transformacao: { resultado: 'falhou', motivo: expect.stringMatching(/^tempo-esgotado/) },
    corpo: null,
  });
});

test('a filtered event is not queued: its delivery is recorded as filtrada, which the log lists', async () => {
  await put('a2', {
    eventoAvaliacaoSaudeAprovada: true,
    filtro: { 'data.exames.valor': { $gte: 50 }, 'data.plano': { $in: ['OURO', 'PLATINA'] } },
  });
  const passing = await publish(TENANT_A.usuarioId, { plano: 'OURO', exames: [{ valor: 10 }, { valor: 70 }] });
  const dropped = await publish(TENANT_A.usuarioId, { plano: 'OURO', exames: [{ valor: 10 }] });
  const other = await publish(TENANT_A.usuarioId, { plano: 'BRONZE', exames: [{ valor: 99 }] });
  await receiver.waitFor('/a2', 1);
  await expect
    .poll(async () => (await deliveries('a2')).map((d) => `${d.eventoId}:${d.status}`).sort())
    .toEqual([`${passing.id}:entregue`, `${dropped.id}:filtrada`, `${other.id}:filtrada`].sort());
  const filtered = await deliveries('a2', '?status=filtrada');
  expect(filtered.map((d) => d.tentativas)).toEqual([0, 0]);
  expect(receiver.at('/a2')).toHaveLength(1);
  // The configuration's figures count them too.
  const health = await api.get(apiPath(routes.deliveryHealth, { id: WEBHOOK_IDS.a2 }), { headers: tenantA });
  expect(((await health.json()) as { totais: unknown }).totais).toMatchObject({ entregues: 1, falhas: 0, filtradas: 2 });
  await put('a2', { eventoAvaliacaoSaudeAprovada: false });
});

test('minimised and transformed bodies arrive signed as sent, and the log shows them as sent', async () => {
  await put('a3', {
    eventoAvaliacaoSaudeAprovada: true,
    headers: [{ chave: 'X-Origem', valor: 'console' }],
    campos: [
      { ponteiro: '/data/beneficiario/cpf', acao: 'mascarar', visiveis: 2 },
      { ponteiro: '/data/exames/*/laudo', acao: 'remover' },
    ],
  });
  await put('a4', {
    eventoAvaliacaoSaudeAprovada: true,
    headers: [{ chave: 'X-Origem', valor: 'console' }],
    campos: [{ ponteiro: '/data/beneficiario', acao: 'manter' }],
    transformacao: `function handler(webhook) {
      if (webhook.payload.data.beneficiario.nome === 'Cancelar') return null;
      return { payload: { tipo: webhook.type, quem: webhook.payload.data.beneficiario.nome, origem: webhook.headers['X-Origem'] }, headers: { 'X-Transformado': 'sim' } };
    }`,
  });
  const dados = { beneficiario: { nome: 'Maria', cpf: '12345678901' }, exames: [{ codigo: 'HEMO', laudo: 'normal' }] };
  const event = await publish(TENANT_A.usuarioId, dados);
  const [minimised] = await receiver.waitFor('/a3', 1);
  const [transformed] = await receiver.waitFor('/a4', 1);

  const signedA3 = new Webhook(await secretOf('a3')).verify(minimised!.body, minimised!.headers as Record<string, string>) as {
    data: unknown;
  };
  expect(signedA3.data).toEqual({
    beneficiario: { nome: 'Maria', cpf: '••••••••01' },
    exames: [{ codigo: 'HEMO' }],
    idEvento: event.id,
    usuarioId: TENANT_A.usuarioId,
  });
  const signedA4 = new Webhook(await secretOf('a4')).verify(transformed!.body, transformed!.headers as Record<string, string>);
  expect(signedA4).toEqual({ tipo: 'avaliacao-saude.aprovada', quem: 'Maria', origem: 'console' });
  expect(transformed!.headers['x-transformado']).toBe('sim');
  expect(transformed!.headers['x-origem']).toBe('console');

  for (const [key, received] of [
    ['a3', minimised!],
    ['a4', transformed!],
  ] as const) {
    const [delivery] = await deliveries(key);
    const detail = await api.get(apiPath(routes.getDelivery, { id: WEBHOOK_IDS[key], entregaId: delivery!.id }), { headers: tenantA });
    expect(((await detail.json()) as { requisicao: { corpo: string } }).requisicao.corpo).toBe(received.body);
  }

  // The transformation cancels: nothing is sent, the delivery is filtrada.
  const cancelled = await publish(TENANT_A.usuarioId, { beneficiario: { nome: 'Cancelar', cpf: '1' } });
  await expect.poll(async () => (await deliveries('a4')).find((d) => d.eventoId === cancelled.id)?.status).toBe('filtrada');
  expect(receiver.at('/a4')).toHaveLength(1);
  await put('a3', { eventoAvaliacaoSaudeAprovada: false });
  await put('a4', { eventoAvaliacaoSaudeAprovada: false });
});

test('RabbitMQ and NATS JetStream get the same minimised and transformed body, signed, as HTTP does', async () => {
  test.setTimeout(60_000);
  const control = {
    eventoAvaliacaoSaudeAprovada: true,
    campos: [{ ponteiro: '/data/beneficiario/cpf', acao: 'mascarar', visiveis: 2 }],
    transformacao:
      'function handler(w) { return { payload: { tipo: w.type, cpf: w.payload.data.beneficiario.cpf }, headers: { "X-Transformado": "sim" } }; }',
  };
  const name = `ic-e2e-payload-${randomUUID()}`;
  const connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  const channel = await connection.createChannel();
  await channel.assertExchange(name, 'topic', { durable: false, autoDelete: false });
  await channel.assertQueue(name, { durable: false });
  await channel.bindQueue(name, name, 'payload');
  const nc = await connect({ servers: '127.0.0.1:4222' });
  const jsm = await jetstreamManager(nc);
  const stream = `IC_E2E_PAYLOAD_${randomUUID().replaceAll('-', '')}`;
  await jsm.streams.add({ name: stream, subjects: [`ic-e2e.${stream}`] });
  try {
    await put('a5', { ...control, url: `amqp://127.0.0.1:5672/?exchange=${name}&routingKey=payload` });
    await put('a6', { ...control, url: `nats://127.0.0.1:4222?subject=ic-e2e.${stream}` });
    await publish(TENANT_A.usuarioId, { beneficiario: { nome: 'Maria', cpf: '12345678901' } });
    for (const key of ['a5', 'a6'] as const) {
      await expect.poll(async () => (await deliveries(key)).map((d) => d.status), { timeout: 20_000 }).toEqual(['entregue']);
    }
    const rabbit = await channel.get(name, { noAck: true });
    expect(rabbit).not.toBe(false);
    const rabbitHeaders = Object.fromEntries(
      Object.entries((rabbit as amqp.GetMessage).properties.headers ?? {}).map(([k, v]) => [k, String(v)]),
    );
    const natsMessage = await jsm.streams.getMessage(stream, { seq: 1 });
    const natsHeaders = Object.fromEntries([...natsMessage!.header.keys()].map((key) => [key, natsMessage!.header.get(key)]));
    const expected = { tipo: 'avaliacao-saude.aprovada', cpf: '••••••••01' };
    expect(new Webhook(await secretOf('a5')).verify((rabbit as amqp.GetMessage).content.toString('utf8'), rabbitHeaders)).toEqual(expected);
    expect(new Webhook(await secretOf('a6')).verify(natsMessage!.string(), natsHeaders)).toEqual(expected);
    expect([rabbitHeaders['X-Transformado'], natsHeaders['X-Transformado']]).toEqual(['sim', 'sim']);
  } finally {
    await put('a5', { eventoAvaliacaoSaudeAprovada: false, url: receiver.url('/a5'), campos: null, transformacao: null });
    await put('a6', { eventoAvaliacaoSaudeAprovada: false, url: receiver.url('/a6'), campos: null, transformacao: null });
    await channel.deleteQueue(name).catch(() => undefined);
    await channel.deleteExchange(name).catch(() => undefined);
    await connection.close();
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.close();
  }
});

const HOSTILE: Record<string, string> = {
  loop: 'function handler() { for (;;) {} }',
  memory: 'function handler() { var a = []; for (;;) a.push(new Array(100000).fill(1)); }',
  recursion: 'function handler() { function f(n) { return f(n + 1) + 1; } return f(0); }',
  huge: 'function handler() { return { payload: "x".repeat(1024 * 1024) }; }',
  fetch: 'function handler(w) { fetch("http://127.0.0.1:1/"); return { payload: w.payload }; }',
  require: 'function handler() { return { payload: require("fs").readFileSync("/etc/passwd", "utf8") }; }',
  process: 'function handler() { return { payload: process.env }; }',
  throws: 'function handler() { throw new TypeError("quebrou"); }',
};

const REASONS: Record<string, RegExp> = {
  loop: /^tempo-esgotado/,
  memory: /^(memoria-esgotada|tempo-esgotado)/,
  recursion: /^pilha-esgotada/,
  huge: /^resultado-grande-demais/,
  fetch: /^excecao: ReferenceError: 'fetch' is not defined/,
  require: /^excecao: ReferenceError: 'require' is not defined/,
  process: /^excecao: ReferenceError: 'process' is not defined/,
  throws: /^excecao: TypeError: quebrou/,
};

test('hostile code fails only its own deliveries, each a recorded transformacao failure with its reason, while another tenant’s events arrive', async () => {
  test.setTimeout(180_000);
  await put('b1', { eventoAvaliacaoSaudeAprovada: true });
  const secretB = await secretOf('b1');
  let sent = 0;
  /** Tenant B's plain deliveries: each event's time from publish to arrival. */
  async function tenantBLatencies(count: number): Promise<number[]> {
    const latencies: number[] = [];
    for (let i = 0; i < count; i++) {
      const n = sent++;
      const publishedAt = Date.now();
      await publish(TENANT_B.usuarioId, { n });
      const arrived = (await receiver.waitFor('/b1', n + 1, 30_000))[n]!;
      latencies.push(arrived.at - publishedAt);
      const verified = new Webhook(secretB).verify(arrived.body, arrived.headers as Record<string, string>) as { data: { n: number } };
      expect(verified.data.n).toBe(n);
    }
    return latencies;
  }
  const baseline = await tenantBLatencies(3);

  // 50 hostile configurations of tenant A, the eight kinds of hostile code in turn.
  const kinds = Object.keys(HOSTILE);
  const hostile: { id: string; kind: string }[] = [];
  for (let i = 0; i < 50; i++) {
    const kind = kinds[i % kinds.length]!;
    const response = await api.post(apiPath(routes.createWebhookConfiguration), {
      headers: tenantA,
      data: { url: receiver.url(`/hostil-${i}`), eventoAvaliacaoSaudeAprovada: true, transformacao: HOSTILE[kind] },
    });
    expect(response.status(), await response.text()).toBe(201);
    hostile.push({ id: ((await response.json()) as { id: string }).id, kind });
  }
  // Each event of tenant A runs the 50 hostile transformations; tenant B's events go meanwhile.
  const during: number[] = [];
  for (let round = 0; round < 3; round++) {
    await publish(TENANT_A.usuarioId, { round });
    during.push(...(await tenantBLatencies(1)));
  }
  console.log(`tenant B's delivery latency: alone ${baseline.join(', ')} ms; beside 50 hostile configurations ${during.join(', ')} ms`);

  for (const { id, kind } of hostile) {
    await expect
      .poll(
        async () => {
          const response = await api.get(`${apiPath(routes.listDeliveries, { id })}`, { headers: tenantA });
          const list = (await response.json()) as Delivery[];
          return list.length > 0 && list.every((d) => d.ultimaResposta?.erro === 'transformacao');
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    const [delivery] = (await (await api.get(apiPath(routes.listDeliveries, { id }), { headers: tenantA })).json()) as Delivery[];
    expect(delivery!.ultimaResposta!.corpo, kind).toMatch(REASONS[kind]!);
  }
  expect(receiver.at('/hostil-0')).toHaveLength(0);
  // The engine still runs other configurations' code after all that.
  const after = await bench('a1', {
    mensagem: MESSAGE,
    transformacao: 'function handler(w) { return { payload: w.payload.data.valor }; }',
  });
  expect(await after.json()).toMatchObject({ transformacao: { resultado: 'enviar', payload: 120 } });
});
