import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, tokenFor } from '../support/api';
import { adminDatabaseUrl, createDatabase, dropDatabase, privateDatabase } from '../support/databases';
import { Receiver } from '../support/receiver';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Deliveries are state in the app database, not in a process: kill -9 in the middle of attempts
 * loses none of them (the restarted server takes over the dead one's leases and sends them with the
 * same webhook-ids), and two instances on one PostgreSQL database send each delivery once.
 */
const relaxed = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '1000' };

async function pointAt(api: APIRequestContext, url: string) {
  const auth = bearer(await tokenFor(api, TENANT_A));
  const response = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
    headers: auth,
    // A flag no other seeded configuration has on: each event makes exactly one delivery.
    data: { url, eventoAvaliacaoSaudeArquivada: true },
  });
  expect(response.status()).toBe(200);
}

async function publishMany(api: APIRequestContext, count: number, prefix: string) {
  const auth = bearer(await tokenFor(api, PRODUCER));
  for (let i = 0; i < count; i++) {
    const response = await api.post(apiPath(routes.publishEvent), {
      headers: auth,
      data: { tipo: 'eventoAvaliacaoSaudeArquivada', usuarioId: TENANT_A.usuarioId, idEvento: `${prefix}-${i}`, dados: { i } },
    });
    expect(response.status()).toBe(202);
  }
}

test('kill -9 during attempts: after restart every delivery still arrives, with its own webhook-id', async ({ playwright }) => {
  test.setTimeout(90_000);
  const receiver = await new Receiver().start();
  // Slow answers keep attempts in flight when the server dies.
  receiver.script('/duravel', { status: 204, delayMs: 400 });
  const dataDir = newDataDir('delivery-durability');
  const port = await freePort();
  const database = await privateDatabase('durable');
  const env = { ...relaxed, WEBHOOK_CONCURRENCY: '4', ...database.env };
  let server = await startServer({ port, dataDir, env });
  try {
    let api = await playwright.request.newContext({ baseURL: server.url });
    await pointAt(api, receiver.url('/duravel'));
    await publishMany(api, 20, 'duravel');
    await receiver.waitFor('/duravel', 2);
    await server.stop('SIGKILL');
    await api.dispose();

    server = await startServer({ port, dataDir, env });
    api = await playwright.request.newContext({ baseURL: server.url });
    await expect.poll(() => receiver.ids('/duravel').size, { timeout: 60_000 }).toBe(20);
    const list = await api.get(`${apiPath(routes.listDeliveries, { id: WEBHOOK_IDS.a1 })}?limite=200`, {
      headers: bearer(await tokenFor(api, TENANT_A)),
    });
    const deliveries = (await list.json()) as { status: string }[];
    await expect
      .poll(
        async () => {
          const again = await api.get(`${apiPath(routes.listDeliveries, { id: WEBHOOK_IDS.a1 })}?limite=200`, {
            headers: bearer(await tokenFor(api, TENANT_A)),
          });
          return ((await again.json()) as { status: string }[]).filter((delivery) => delivery.status === 'entregue').length;
        },
        { timeout: 30_000 },
      ) // an attempt cut off by the kill is sent again once its lease runs out (7 s here)
      .toBe(20);
    expect(deliveries).toHaveLength(20);
    await api.dispose();
  } finally {
    await server.stop();
    await receiver.stop();
    await database.drop();
  }
});

const adminUrl = adminDatabaseUrl();

test('two instances on one PostgreSQL database: 200 events, every delivery arrives, none twice', async ({ playwright }) => {
  test.skip(!adminUrl, 'needs a server database: run with E2E_DATABASE_URL (npm run test:e2e:pg)');
  test.setTimeout(120_000);
  const receiver = await new Receiver().start();
  const databaseUrl = await createDatabase(adminUrl!, 'deliveries');
  const shared = {
    ...relaxed,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: randomBytes(32).toString('base64url'),
    // Two connections publish as fast as they go, through both instances at once: this is about
    // delivery, not the intake's rate limit (tenant-quotas.spec.ts).
    MAX_EVENTS_PER_SECOND: '100000',
  };
  const servers: RunningServer[] = [];
  try {
    servers.push(await startServer({ dataDir: newDataDir('deliveries-0'), env: shared }));
    servers.push(await startServer({ dataDir: newDataDir('deliveries-1'), env: shared }));
    const apis = await Promise.all(servers.map((server) => playwright.request.newContext({ baseURL: server.url })));
    await pointAt(apis[0]!, receiver.url('/duas'));
    // Half the events through each instance: each wakes its own worker, and both poll.
    await Promise.all(apis.map((api, index) => publishMany(api, 100, `duas-${index}`)));
    await expect.poll(() => receiver.ids('/duas').size, { timeout: 60_000 }).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(receiver.at('/duas')).toHaveLength(200);
    await Promise.all(apis.map((api) => api.dispose()));
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await receiver.stop();
    await dropDatabase(adminUrl!, databaseUrl);
  }
});

test('a rolling restart of two instances under a steady stream of events: each sent once, no attempt lost', async ({ playwright }) => {
  test.skip(!adminUrl, 'needs a server database: run with E2E_DATABASE_URL (npm run test:e2e:pg)');
  test.setTimeout(150_000);
  const receiver = await new Receiver().start();
  // Answers take 300 ms, so a deploy always finds attempts in flight.
  receiver.script('/rolante', { status: 204, delayMs: 300 });
  const databaseUrl = await createDatabase(adminUrl!, 'rolling');
  const shared = { ...relaxed, DATABASE_URL: databaseUrl, AUTH_SECRET: randomBytes(32).toString('base64url') };
  // Each restarts on its own address, as a deploy keeps an instance's.
  const options = await Promise.all(
    [0, 1].map(async (index) => ({ port: await freePort(), dataDir: newDataDir(`rolling-${index}`), env: shared })),
  );
  // One after the other, as a deploy finds them (two instances migrating at once: multi-instance.spec.ts).
  const servers: RunningServer[] = [];
  for (const option of options) servers.push(await startServer(option));
  const up = [true, true];
  const accepted = new Set<string>();
  let publishing = true;
  try {
    const api = await playwright.request.newContext({ baseURL: servers[0]!.url });
    await pointAt(api, receiver.url('/rolante'));
    const producer = bearer(await tokenFor(api, PRODUCER));
    await api.dispose();

    // One event every 40 ms, to whichever instance is up; a refused or cut request is sent again to
    // the other one with the same idEvento (which makes the retry safe).
    const stream = (async () => {
      for (let i = 0; publishing; i++) {
        const idEvento = `rolante-${i}`;
        for (let tries = 0; tries < 20 && !accepted.has(idEvento); tries++) {
          const target = servers[(i + tries) % 2]!;
          if (!up[(i + tries) % 2]) continue;
          try {
            const response = await fetch(`${target.url}${apiPath(routes.publishEvent)}`, {
              method: 'POST',
              headers: { ...producer, 'content-type': 'application/json' },
              body: JSON.stringify({ tipo: 'eventoAvaliacaoSaudeArquivada', usuarioId: TENANT_A.usuarioId, idEvento, dados: { i } }),
            });
            if (response.status === 202 || response.status === 200) accepted.add(idEvento);
          } catch {
            // the instance is going down: the other one takes it
          }
          if (!accepted.has(idEvento)) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();

    for (const index of [0, 1]) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      up[index] = false;
      await servers[index]!.stop('SIGTERM');
      // The deploy drained: it exited by itself, with every attempt it had started recorded.
      expect(servers[index]!.process.exitCode).toBe(0);
      expect(servers[index]!.logs()).toMatch(/"unfinishedAttempts":0[^\n]*"event":"server\.stopped"/);
      servers[index] = await startServer(options[index]!);
      up[index] = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    publishing = false;
    await stream;
    expect(accepted.size).toBeGreaterThan(50);
    await expect.poll(() => receiver.ids('/rolante').size, { timeout: 60_000 }).toBe(accepted.size);
    // An attempt abandoned by a stopping instance would be sent again when its lease ran out (7 s here).
    await new Promise((resolve) => setTimeout(resolve, 8000));
    expect(receiver.at('/rolante')).toHaveLength(accepted.size);
  } finally {
    publishing = false;
    await Promise.all(servers.map((server) => server.stop()));
    await receiver.stop();
    await dropDatabase(adminUrl!, databaseUrl);
  }
});
