import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext } from '@playwright/test';
import amqp from 'amqplib';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { TcpProxy } from '../support/tcp-proxy';
import { TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * A broker login belongs to its broker (issue 43): a PUT that re-points a configuration at another
 * broker (here the real RabbitMQ and NATS behind a proxy on another loopback port, which records
 * what the product offers it) without `credenciais` drops the stored login, says so, and the next
 * attempt offers the old password nowhere. Sending the login again, or changing only the
 * destination on the same broker, keeps it.
 */
test.describe.configure({ mode: 'serial' });

const run = promisify(execFile);
let server: RunningServer;
let api: APIRequestContext;
let tenantA: Record<string, string>;
let database: Awaited<ReturnType<typeof privateDatabase>>;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  database = await privateDatabase('broker_login');
  server = await startServer({
    dataDir: newDataDir('broker-login'),
    env: { ...database.env, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '3000' },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await database?.drop();
});

const configPath = (id: string) => apiPath(routes.getWebhookConfiguration, { id });

async function put(id: string, data: Record<string, unknown>) {
  const response = await api.put(configPath(id), { headers: tenantA, data: { ...FLAGS_OFF, ...data } });
  expect(response.status(), await response.text()).toBe(200);
  const body = (await response.json()) as { credenciais: { usuario: string } | null };
  return { credenciais: body.credenciais, dropped: response.headers()['credenciais-descartadas'] };
}

/** Sends the test event and waits until it is delivered. */
async function deliverTestEvent(id: string) {
  expect((await api.post(apiPath(routes.sendTestEvent, { id }), { headers: tenantA })).status()).toBe(202);
  await expect
    .poll(
      async () => {
        const response = await api.get(`${apiPath(routes.listDeliveries, { id })}?limite=1`, { headers: tenantA });
        const [latest] = (await response.json()) as { status: string; ultimaResposta?: { erro: string | null } | null }[];
        return latest?.status === 'entregue' ? 'entregue' : (latest?.ultimaResposta?.erro ?? latest?.status);
      },
      { timeout: 20_000 },
    )
    .toBe('entregue');
}

test('RabbitMQ: a new host, port or vhost without credenciais drops the login, and the new broker is never offered the old password', async () => {
  test.setTimeout(60_000);
  const usuario = `ic-e2e-${randomBytes(4).toString('hex')}`;
  const senha = `senha-${randomBytes(12).toString('hex')}`;
  await run('rabbitmqctl', ['add_user', usuario, senha]);
  await run('rabbitmqctl', ['set_permissions', '-p', '/', usuario, '.*', '.*', '.*']);
  const queue = `ic-e2e-${randomUUID()}`;
  const admin = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  const channel = await admin.createChannel();
  await channel.assertQueue(queue, { durable: false, autoDelete: false });
  const elsewhere = await new TcpProxy(5672).start();
  try {
    const id = WEBHOOK_IDS.a1;
    const login = { usuario, senha };
    expect((await put(id, { url: `amqp://127.0.0.1:5672/?routingKey=${queue}`, credenciais: login })).credenciais).not.toBeNull();
    // Another routing key on the same broker keeps the login.
    const sameBroker = await put(id, { url: `amqp://127.0.0.1:5672/?exchange=&routingKey=${queue}` });
    expect(sameBroker.credenciais).not.toBeNull();
    expect(sameBroker.dropped).toBeUndefined();
    // Another vhost on the same host drops it.
    const otherVhost = await put(id, { url: `amqp://127.0.0.1:5672/outro?routingKey=${queue}` });
    expect(otherVhost).toEqual({ credenciais: null, dropped: 'true' });

    // Back with the login, then re-pointed at "someone else's broker" (another port) without it.
    await put(id, { url: `amqp://127.0.0.1:5672/?routingKey=${queue}`, credenciais: login });
    const moved = await put(id, { url: `amqp://127.0.0.1:${elsewhere.port}/?routingKey=${queue}` });
    expect(moved).toEqual({ credenciais: null, dropped: 'true' });
    await deliverTestEvent(id);
    expect(elsewhere.clientBytes()).toContain('PLAIN');
    expect(elsewhere.clientBytes()).toContain('\0guest\0guest');
    expect(elsewhere.clientBytes()).not.toContain(senha);
    expect(elsewhere.clientBytes()).not.toContain(usuario);

    // The check can see a password: sent again with the new URL, the login reaches that broker.
    const resent = await put(id, { url: `amqp://127.0.0.1:${elsewhere.port}/?routingKey=${queue}`, credenciais: login });
    expect(resent.dropped).toBeUndefined();
    await deliverTestEvent(id);
    expect(elsewhere.clientBytes()).toContain(`\0${usuario}\0${senha}`);
  } finally {
    await elsewhere.stop();
    await channel.deleteQueue(queue).catch(() => undefined);
    await admin.close();
    await run('rabbitmqctl', ['delete_user', usuario]).catch(() => undefined);
  }
});

test('NATS: a new host or port without credenciais drops the login, and the new server is never offered the old password', async () => {
  test.setTimeout(60_000);
  const nc = await connect({ servers: '127.0.0.1:4222' });
  const jsm = await jetstreamManager(nc);
  const name = `IC_E2E_${randomUUID().replaceAll('-', '')}`;
  const subject = `ic-e2e.${name}`;
  await jsm.streams.add({ name, subjects: [subject] });
  const elsewhere = await new TcpProxy(4222).start();
  // The shared NATS has no login of its own: it accepts any, so the proxy sees what is offered.
  const login = { usuario: `ic-${randomBytes(4).toString('hex')}`, senha: `senha-${randomBytes(12).toString('hex')}` };
  try {
    const id = WEBHOOK_IDS.a2;
    await put(id, { url: `nats://127.0.0.1:4222?subject=${subject}`, credenciais: login });
    const moved = await put(id, { url: `nats://127.0.0.1:${elsewhere.port}?subject=${subject}` });
    expect(moved).toEqual({ credenciais: null, dropped: 'true' });
    await deliverTestEvent(id);
    expect(elsewhere.clientBytes()).toContain('CONNECT');
    expect(elsewhere.clientBytes()).not.toContain(login.senha);

    await put(id, { url: `nats://127.0.0.1:${elsewhere.port}?subject=${subject}`, credenciais: login });
    await deliverTestEvent(id);
    expect(elsewhere.clientBytes()).toContain(login.senha);
  } finally {
    await elsewhere.stop();
    await jsm.streams.delete(name).catch(() => undefined);
    await nc.close();
  }
});
