import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext } from '@playwright/test';
import amqp from 'amqplib';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Webhook } from 'standardwebhooks';
import { apiPath, routes } from '@/lib/api/routes';
import { EVENT_TYPE_OF_FLAG, PUBLISHED_EVENT_FLAGS, type WebhookEventFlag } from '@/lib/webhooks/events/types';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { OtlpReceiver } from '../support/otlp-receiver';
import { withDatabaseAt } from '../support/server-db';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { TcpProxy } from '../support/tcp-proxy';
import { PRODUCER, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Broker destinations (issue 29) against the real RabbitMQ (127.0.0.1:5672) and NATS JetStream
 * (127.0.0.1:4222) that scripts/test-all.sh starts: every event type reaches each kind, signed so
 * the `standardwebhooks` library verifies it; a broker away for 10 s under a stream of events loses
 * nothing, its circuit opens and closes and the log says why; one away for 60 s has everything
 * delivered within 15 s of its return (issue 45). JetStream gets nothing twice (it drops
 * a repeated `Nats-Msg-Id`); RabbitMQ has no duplicate window, so a message whose confirm the cut
 * connection lost may arrive again, with the same webhook-id, and only such a message. The brokers'
 * passwords are never in an answer, a log line, a span or the audit trail.
 * RabbitMQ itself is shared, so its outage is a proxy the spec cuts; NATS's is a private
 * nats-server the spec stops and starts. Each test has its own exchange, queue, stream and subject.
 */
test.describe.configure({ mode: 'serial' });

const RABBIT_ADMIN = 'amqp://guest:guest@127.0.0.1:5672';
const run = promisify(execFile);

let server: RunningServer;
let api: APIRequestContext;
let tenantA: Record<string, string>;
let producer: Record<string, string>;
let database: Awaited<ReturnType<typeof privateDatabase>>;
let otlp: OtlpReceiver;
/** Passwords that must never leave the server. */
const passwords: string[] = [];

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  otlp = await new OtlpReceiver().start();
  database = await privateDatabase('brokers');
  server = await startServer({
    dataDir: newDataDir('brokers'),
    env: {
      ...database.env,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_CIRCUIT_FAILURES: '3',
      WEBHOOK_CIRCUIT_OPEN_SECONDS: '2',
      WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 25 }, () => '1').join(','),
      WEBHOOK_TIMEOUT_MS: '3000',
      MAX_EVENTS_PER_SECOND: '100000',
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
  producer = bearer(await tokenFor(api, PRODUCER));
  // Every configuration of the tenant starts with no event on: each test turns on its own.
  const tenantAIds = Object.entries(WEBHOOK_IDS).flatMap(([key, id]) => (key.startsWith('a') ? [id] : []));
  for (const id of tenantAIds) {
    const response = await api.put(configPath(id), { headers: tenantA, data: { ...FLAGS_OFF } });
    expect(response.status()).toBe(200);
  }
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await database?.drop();
});

const configPath = (id: string) => apiPath(routes.getWebhookConfiguration, { id });

async function pointAt(id: string, url: string, credenciais: { usuario: string; senha: string } | null, flags: Partial<typeof FLAGS_OFF>) {
  const response = await api.put(configPath(id), {
    headers: tenantA,
    data: { url, credenciais, headers: [{ chave: 'X-Parceiro', valor: 'clinica-e2e' }], ...FLAGS_OFF, ...flags },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { url: string; credenciais: { usuario: string } | null };
}

async function publish(tipo: WebhookEventFlag, idEvento: string) {
  const response = await api.post(apiPath(routes.publishEvent), {
    headers: producer,
    data: { tipo, usuarioId: TENANT_A.usuarioId, idEvento, dados: { idEvento } },
  });
  expect(response.status()).toBe(202);
}

async function secretOf(id: string): Promise<string> {
  const response = await api.get(apiPath(routes.getWebhookSecret, { id }), { headers: tenantA });
  return ((await response.json()) as { segredo: string }).segredo;
}

type Delivery = { id: string; status: string };
async function deliveries(id: string): Promise<Delivery[]> {
  const response = await api.get(`${apiPath(routes.listDeliveries, { id })}?limite=200`, { headers: tenantA });
  expect(response.status()).toBe(200);
  return (await response.json()) as Delivery[];
}

/** Why each attempt of a delivery failed (null: it did not), oldest first. */
async function attemptErrors(id: string, entregaId: string): Promise<(string | null)[]> {
  const response = await api.get(apiPath(routes.getDelivery, { id, entregaId }), { headers: tenantA });
  const { tentativasDetalhadas } = (await response.json()) as { tentativasDetalhadas: { erro: string | null }[] };
  return tentativasDetalhadas.map((attempt) => attempt.erro);
}

/** A message as a consumer gets it: body, and headers as strings. */
type Consumed = { body: string; headers: Record<string, string> };

function verifyAll(messages: Consumed[], secret: string) {
  const webhook = new Webhook(secret);
  return messages.map((message) => webhook.verify(message.body, message.headers) as { type: string; data: { idEvento: string } });
}

/** A RabbitMQ user with a password of its own, so the password can be searched for. */
async function rabbitUser(): Promise<{ usuario: string; senha: string }> {
  const usuario = `ic-e2e-${randomBytes(4).toString('hex')}`;
  const senha = `senha-${randomBytes(12).toString('hex')}`;
  await run('rabbitmqctl', ['add_user', usuario, senha]);
  await run('rabbitmqctl', ['set_permissions', '-p', '/', usuario, '.*', '.*', '.*']);
  passwords.push(senha);
  return { usuario, senha };
}

async function rabbitQueue(routingKey: string) {
  const name = `ic-e2e-${randomUUID()}`;
  const connection = await amqp.connect(RABBIT_ADMIN);
  const channel = await connection.createChannel();
  await channel.assertExchange(name, 'topic', { durable: true });
  await channel.assertQueue(name, { durable: true });
  await channel.bindQueue(name, name, routingKey);
  return {
    name,
    async drain(): Promise<Consumed[]> {
      const got: Consumed[] = [];
      for (;;) {
        const message = await channel.get(name, { noAck: true });
        if (!message) return got;
        const headers = Object.fromEntries(Object.entries(message.properties.headers ?? {}).map(([key, value]) => [key, String(value)]));
        expect(message.properties.messageId).toBe(headers['webhook-id']);
        got.push({ body: message.content.toString('utf8'), headers });
      }
    },
    async remove() {
      await channel.deleteQueue(name).catch(() => undefined);
      await channel.deleteExchange(name).catch(() => undefined);
      await connection.close();
    },
  };
}

/** Every message a JetStream stream holds, in order. */
async function readStream(jsm: JetStreamManager, name: string): Promise<Consumed[]> {
  const info = await jsm.streams.info(name);
  const got: Consumed[] = [];
  for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq++) {
    const message = await jsm.streams.getMessage(name, { seq });
    if (!message) continue;
    const headers = Object.fromEntries([...message.header.keys()].map((key) => [key, message.header.get(key)]));
    expect(headers['Nats-Msg-Id']).toBe(headers['webhook-id']);
    got.push({ body: message.string(), headers });
  }
  return got;
}

async function natsStream(nc: NatsConnection) {
  const name = `IC_E2E_${randomUUID().replaceAll('-', '')}`;
  const subject = `ic-e2e.${name}`;
  const jsm: JetStreamManager = await jetstreamManager(nc);
  await jsm.streams.add({ name, subjects: [subject] });
  return {
    name,
    subject,
    all: () => readStream(jsm, name),
    remove: () => jsm.streams.delete(name).catch(() => undefined),
  };
}

/** A nats-server of the spec's own, with JetStream and a login, that it can stop and start. */
class PrivateNats {
  private child: ChildProcess | undefined;
  readonly dir = fs.mkdtempSync(path.join(process.env.E2E_RUN_DIR ?? os.tmpdir(), 'ic-e2e-nats-'));
  readonly usuario = `ic-${randomBytes(4).toString('hex')}`;
  readonly senha = `senha-${randomBytes(12).toString('hex')}`;
  port = 0;

  async start(): Promise<this> {
    this.port ||= await freePort();
    this.child = spawn(
      '/usr/sbin/nats-server',
      ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.dir, '--user', this.usuario, '--pass', this.senha],
      { stdio: 'ignore' },
    );
    await waitForPort(this.port, true);
    return this;
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    await waitForPort(this.port, false);
  }

  connect() {
    return connect({ servers: `127.0.0.1:${this.port}`, user: this.usuario, pass: this.senha });
  }
}

async function waitForPort(port: number, open: boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const answered = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (answered === open) return;
    if (Date.now() > deadline) throw new Error(`port ${port} still ${open ? 'closed' : 'open'}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The event types a producer publishes (the scheduling ones are the product's own, lib/waitlist).
const ALL_FLAGS = Object.fromEntries(PUBLISHED_EVENT_FLAGS.map((flag) => [flag, true])) as Partial<Record<WebhookEventFlag, boolean>>;
const ALL_TYPES = [...PUBLISHED_EVENT_FLAGS.map((flag) => EVENT_TYPE_OF_FLAG[flag]), 'webhook.teste'].sort();

test('RabbitMQ: every event type and the test event arrive persistent, signed, with the custom header; a routing key no queue takes is “sem-rota”', async () => {
  test.setTimeout(60_000);
  const login = await rabbitUser();
  const queue = await rabbitQueue('avaliacoes.#');
  try {
    const id = WEBHOOK_IDS.a1;
    const saved = await pointAt(id, `amqp://127.0.0.1:5672/?exchange=${queue.name}&routingKey=avaliacoes.parceiro`, login, ALL_FLAGS);
    expect(saved.credenciais).toEqual({ usuario: expect.stringMatching(/^•+[0-9a-f]{2}$/) as unknown });
    for (const flag of PUBLISHED_EVENT_FLAGS) await publish(flag, `rabbit-${flag}`);
    expect((await api.post(apiPath(routes.sendTestEvent, { id }), { headers: tenantA })).status()).toBe(202);
    await expect.poll(async () => (await deliveries(id)).filter((d) => d.status === 'entregue').length, { timeout: 20_000 }).toBe(6);
    const messages = await queue.drain();
    expect(messages).toHaveLength(6);
    const verified = verifyAll(messages, await secretOf(id));
    expect(verified.map((message) => message.type).sort()).toEqual(ALL_TYPES);
    expect(messages.every((message) => message.headers['X-Parceiro'] === 'clinica-e2e')).toBe(true);
    // Another secret does not verify: the check above means something.
    expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(messages[0]!.body, messages[0]!.headers)).toThrow();

    // A routing key the exchange sends nowhere: each attempt is a classified failure, in words.
    await pointAt(id, `amqp://127.0.0.1:5672/?exchange=${queue.name}&routingKey=ninguem`, login, { eventoPropostaCancelada: true });
    await publish('eventoPropostaCancelada', 'rabbit-sem-rota');
    await expect
      .poll(async () => {
        const [latest] = await deliveries(id);
        return (latest as { ultimaResposta?: { erro: string | null } | null } | undefined)?.ultimaResposta?.erro;
      })
      .toBe('sem-rota');
  } finally {
    await queue.remove();
  }
});

test('NATS JetStream: every event type and the test event are stored once, signed, with Nats-Msg-Id = webhook-id; a subject no stream takes is “sem-rota”', async () => {
  test.setTimeout(60_000);
  const nc = await connect({ servers: '127.0.0.1:4222' });
  const stream = await natsStream(nc);
  try {
    const id = WEBHOOK_IDS.a2;
    const saved = await pointAt(id, `nats://127.0.0.1:4222?subject=${stream.subject}`, null, ALL_FLAGS);
    expect(saved.credenciais).toBeNull();
    for (const flag of PUBLISHED_EVENT_FLAGS) await publish(flag, `nats-${flag}`);
    expect((await api.post(apiPath(routes.sendTestEvent, { id }), { headers: tenantA })).status()).toBe(202);
    await expect.poll(async () => (await deliveries(id)).filter((d) => d.status === 'entregue').length, { timeout: 20_000 }).toBe(6);
    const messages = await stream.all();
    expect(messages).toHaveLength(6);
    const verified = verifyAll(messages, await secretOf(id));
    expect(verified.map((message) => message.type).sort()).toEqual(ALL_TYPES);
    expect(messages.every((message) => message.headers['X-Parceiro'] === 'clinica-e2e')).toBe(true);

    await pointAt(id, `nats://127.0.0.1:4222?subject=ninguem.${randomUUID()}`, null, { eventoPropostaCancelada: true });
    await publish('eventoPropostaCancelada', 'nats-sem-rota');
    await expect
      .poll(async () => {
        const [latest] = await deliveries(id);
        return (latest as { ultimaResposta?: { erro: string | null } | null } | undefined)?.ultimaResposta?.erro;
      })
      .toBe('sem-rota');
  } finally {
    await stream.remove();
    await nc.close();
  }
});

/**
 * Events published every 150 ms for 15 s; 2 s in, the broker goes away for 10 s. Every event ends
 * delivered (by webhook-id), the circuit opened and closed (the API showed it open), and the
 * attempts' log says why they failed. With `repeats: 'none'` each event arrives once; with
 * `'confirm-lost'` (RabbitMQ) an event may arrive again only if one of its attempts failed, i.e. the
 * broker stored it but the cut connection lost its confirm — the receiver deduplicates on webhook-id.
 */
async function outage(
  id: string,
  broker: { down: () => Promise<void>; up: () => Promise<void> },
  consumed: () => Promise<Consumed[]>,
  repeats: 'none' | 'confirm-lost',
) {
  const events = 100;
  let sawOpen = false;
  const watching = (async () => {
    const until = Date.now() + 25_000;
    while (!sawOpen && Date.now() < until) {
      const detail = (await (await api.get(configPath(id), { headers: tenantA })).json()) as { circuito: unknown };
      sawOpen = detail.circuito !== null;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const publishing = (async () => {
    for (let i = 0; i < events; i++) {
      await publish('eventoPropostaCancelada', `queda-${id}-${i}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await broker.down();
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  await broker.up();
  await publishing;
  await watching;
  expect(sawOpen).toBe(true);
  await expect.poll(async () => (await deliveries(id)).filter((d) => d.status === 'entregue').length, { timeout: 60_000 }).toBe(events);
  const detail = (await (await api.get(configPath(id), { headers: tenantA })).json()) as { circuito: unknown };
  expect(detail.circuito).toBeNull();
  const messages = await consumed();
  const ids = messages.map((message) => message.headers['webhook-id']);
  expect(new Set(ids).size).toBe(events);
  const delivered = new Set((await deliveries(id)).map((delivery) => delivery.id));
  expect(ids.every((webhookId) => delivered.has(webhookId!))).toBe(true);
  const repeated = [...new Set(ids.filter((webhookId, index) => ids.indexOf(webhookId) !== index))];
  if (repeats === 'none') expect(repeated).toEqual([]);
  for (const webhookId of repeated) {
    const errors = await attemptErrors(id, webhookId!);
    expect(
      errors.some((erro) => erro !== null),
      `${webhookId} arrived twice without a failed attempt`,
    ).toBe(true);
  }
  verifyAll(messages, await secretOf(id));
  // The log tells why: the attempts during the outage failed, each with a reason in words.
  const failed: string[] = [];
  for (const delivery of (await deliveries(id)).slice(-events)) {
    failed.push(...(await attemptErrors(id, delivery.id)).flatMap((erro) => (erro ? [erro] : [])));
    if (failed.length > 5) break;
  }
  expect(failed.length).toBeGreaterThan(0);
  expect(
    failed.every((reason) => ['conexao-recusada', 'erro-rede', 'tempo-esgotado'].includes(reason)),
    `reasons: ${failed.join(', ')}`,
  ).toBe(true);
  const lines = server
    .logs()
    .split('\n')
    .filter((line) => line.includes(id));
  expect(lines.some((line) => line.includes('webhook.circuit_opened'))).toBe(true);
  expect(lines.some((line) => line.includes('webhook.circuit_closed'))).toBe(true);
}

test('RabbitMQ away for 10 s (a proxy cutting and refusing connections) under a stream of events: nothing lost, a repeat only where a confirm was lost, the circuit opens and closes', async () => {
  test.setTimeout(120_000);
  const login = await rabbitUser();
  const queue = await rabbitQueue('#');
  const proxy = await new TcpProxy(5672).start();
  try {
    const id = WEBHOOK_IDS.a3;
    await pointAt(id, `amqp://127.0.0.1:${proxy.port}/?exchange=${queue.name}&routingKey=propostas`, login, {
      eventoPropostaCancelada: true,
    });
    await outage(id, { down: () => proxy.cut(), up: () => proxy.restore() }, () => queue.drain(), 'confirm-lost');
  } finally {
    await proxy.stop();
    await queue.remove();
  }
});

test('NATS away for 10 s (its server stopped and started again) under a stream of events: nothing lost, nothing twice, the circuit opens and closes', async () => {
  test.setTimeout(120_000);
  const nats = await new PrivateNats().start();
  passwords.push(nats.senha);
  const nc = await nats.connect();
  const stream = await natsStream(nc);
  await nc.close();
  try {
    const id = WEBHOOK_IDS.a4;
    const saved = await pointAt(
      id,
      `nats://127.0.0.1:${nats.port}?subject=${stream.subject}`,
      { usuario: nats.usuario, senha: nats.senha },
      {
        eventoPropostaCancelada: true,
      },
    );
    expect(JSON.stringify(saved)).not.toContain(nats.senha);
    await outage(
      id,
      { down: () => nats.stop(), up: () => nats.start().then(() => undefined) },
      async () => {
        const reader = await nats.connect();
        try {
          return await readStream(await jetstreamManager(reader), stream.name);
        } finally {
          await reader.close();
        }
      },
      'none',
    );
  } finally {
    await nats.stop();
  }
});

/**
 * Prompt recovery (issue 45): events published every 350 ms for 65 s; 2 s in, the broker goes away
 * for 60 s. Every event ends delivered, nothing is lost (nor taken twice, as `repeats` says), and
 * whatever was published before the broker came back was delivered within 15 s of its return (the
 * delivery log's successful attempt): the circuit probes on its own cadence whatever the deliveries'
 * backoff, and its closing makes every waiting delivery due at once.
 */
async function longOutage(
  id: string,
  broker: { down: () => Promise<void>; up: () => Promise<void> },
  consumed: () => Promise<Consumed[]>,
  repeats: 'none' | 'confirm-lost',
) {
  const events = 180;
  const published = new Map<string, number>();
  const publishing = (async () => {
    for (let i = 0; i < events; i++) {
      const idEvento = `longa-${id}-${i}`;
      await publish('eventoPropostaCancelada', idEvento);
      published.set(idEvento, Date.now());
      await new Promise((resolve) => setTimeout(resolve, 350));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await broker.down();
  await new Promise((resolve) => setTimeout(resolve, 60_000));
  await broker.up();
  const upAt = Date.now();
  await publishing;
  await expect.poll(async () => (await deliveries(id)).filter((d) => d.status === 'entregue').length, { timeout: 60_000 }).toBe(events);
  const messages = await consumed();
  const ids = messages.map((message) => message.headers['webhook-id']);
  expect(new Set(ids).size).toBe(events);
  const repeated = [...new Set(ids.filter((webhookId, index) => ids.indexOf(webhookId) !== index))];
  if (repeats === 'none') expect(repeated).toEqual([]);
  for (const webhookId of repeated) expect((await attemptErrors(id, webhookId!)).some((erro) => erro !== null)).toBe(true);
  const late: string[] = [];
  for (const delivery of await deliveries(id)) {
    const response = await api.get(apiPath(routes.getDelivery, { id, entregaId: delivery.id }), { headers: tenantA });
    const detail = (await response.json()) as { idEvento: string; tentativasDetalhadas: { em: string; erro: string | null }[] };
    const deliveredAt = Date.parse(detail.tentativasDetalhadas.findLast((attempt) => attempt.erro === null)!.em);
    if (published.get(detail.idEvento)! < upAt && deliveredAt > upAt + 15_000) late.push(`${detail.idEvento} ${deliveredAt - upAt} ms`);
  }
  expect(late).toEqual([]);
}

test('RabbitMQ away for 60 s (a proxy) under a stream of events: everything delivered within 15 s of its return, nothing lost, a repeat only where a confirm was lost', async () => {
  test.setTimeout(240_000);
  const login = await rabbitUser();
  const queue = await rabbitQueue('#');
  const proxy = await new TcpProxy(5672).start();
  try {
    const id = WEBHOOK_IDS.a7;
    await pointAt(id, `amqp://127.0.0.1:${proxy.port}/?exchange=${queue.name}&routingKey=propostas`, login, {
      eventoPropostaCancelada: true,
    });
    await longOutage(id, { down: () => proxy.cut(), up: () => proxy.restore() }, () => queue.drain(), 'confirm-lost');
  } finally {
    await proxy.stop();
    await queue.remove();
  }
});

test('NATS away for 60 s (its server stopped and started again) under a stream of events: everything delivered within 15 s of its return, nothing lost, nothing twice', async () => {
  test.setTimeout(240_000);
  const nats = await new PrivateNats().start();
  passwords.push(nats.senha);
  const nc = await nats.connect();
  const stream = await natsStream(nc);
  await nc.close();
  try {
    const id = WEBHOOK_IDS.a8;
    await pointAt(
      id,
      `nats://127.0.0.1:${nats.port}?subject=${stream.subject}`,
      { usuario: nats.usuario, senha: nats.senha },
      {
        eventoPropostaCancelada: true,
      },
    );
    await longOutage(
      id,
      { down: () => nats.stop(), up: () => nats.start().then(() => undefined) },
      async () => {
        const reader = await nats.connect();
        try {
          return await readStream(await jetstreamManager(reader), stream.name);
        } finally {
          await reader.close();
        }
      },
      'none',
    );
  } finally {
    await nats.stop();
  }
});

test('the brokers’ passwords are in no API answer, log line, span or audit entry; a wrong one is “autenticacao-recusada”', async () => {
  test.setTimeout(60_000);
  expect(passwords.length).toBeGreaterThanOrEqual(3);
  const list = await (await api.get(apiPath(routes.listWebhookConfigurations), { headers: tenantA })).text();
  const details = await Promise.all(
    [WEBHOOK_IDS.a1, WEBHOOK_IDS.a3, WEBHOOK_IDS.a4].map(async (id) => (await api.get(configPath(id), { headers: tenantA })).text()),
  );
  // A wrong password: refused by the broker, said in words.
  const id = WEBHOOK_IDS.a5;
  const wrong = `errada-${randomBytes(8).toString('hex')}`;
  passwords.push(wrong);
  const queue = await rabbitQueue('#');
  try {
    await pointAt(
      id,
      `amqp://127.0.0.1:5672/?exchange=${queue.name}&routingKey=x`,
      { usuario: 'guest', senha: wrong },
      { eventoPropostaCancelada: true },
    );
    await publish('eventoPropostaCancelada', 'senha-errada');
    await expect
      .poll(async () => {
        const [latest] = await deliveries(id);
        return (latest as { ultimaResposta?: { erro: string | null } | null } | undefined)?.ultimaResposta?.erro;
      })
      .toBe('autenticacao-recusada');
  } finally {
    await queue.remove();
  }
  // Removing the credentials answers null; an https receiver refuses them, naming the field.
  const cleared = await pointAt(id, `amqp://127.0.0.1:5672/?routingKey=x`, null, {});
  expect(cleared.credenciais).toBeNull();
  const refused = await api.put(configPath(id), {
    headers: tenantA,
    data: { url: 'https://receptor.exemplo.com.br/hooks', credenciais: { usuario: 'u', senha: 'p' } },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { errors: { field: string }[] }).errors.map((error) => error.field)).toContain('credenciais');

  await new Promise((resolve) => setTimeout(resolve, 1000)); // the last spans' batch
  const audit = await withDatabaseAt({ dataDir: server.dataDir, databaseUrl: database.env.DATABASE_URL }, (db) =>
    db('audit_events').where('target', 'like', 'webhook:%').select('before_json', 'after_json'),
  );
  const auditText = JSON.stringify(audit);
  expect(auditText).toContain('credenciais');
  const places = { list, details: details.join('\n'), logs: server.logs(), spans: otlp.bodies.join('\n'), audit: auditText };
  expect(otlp.bodies.length).toBeGreaterThan(0);
  for (const password of passwords) {
    for (const [place, text] of Object.entries(places)) expect(text.includes(password), `${place} holds a broker password`).toBe(false);
  }
  // The spans say where attempts went: the broker's address and destination, no login.
  expect(otlp.spans.some((span) => span.attributes['messaging.system'] === 'rabbitmq')).toBe(true);
  expect(otlp.spans.some((span) => span.attributes['messaging.system'] === 'nats')).toBe(true);
});
