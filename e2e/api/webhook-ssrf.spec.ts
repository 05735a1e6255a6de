import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { CountingServer } from '../support/counting-server';
import { DnsServer } from '../support/dns-server';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer } from '../support/server';
import { TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The connect-time SSRF check with a resolver we control (issue 10 §5): a public-looking host name
 * passes the save-time check, but our DNS server answers it with 127.0.0.1, as a hostile record or
 * a rebinding attack would. The delivery must refuse that address (`destino-bloqueado`) and never
 * reach the receiver listening there. The server runs the production URL policy except for plain
 * http, and resolves with WEBHOOK_DNS_SERVERS.
 */
test('a host name that resolves to a loopback address is refused at connect time', async ({ playwright }) => {
  test.setTimeout(90_000);
  const receiver = await new Receiver().start();
  const dns = await new DnsServer('127.0.0.1').start();
  const database = await privateDatabase('ssrf');
  const server = await startServer({
    dataDir: newDataDir('ssrf'),
    env: { ...database.env, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_DNS_SERVERS: dns.address, WEBHOOK_RETRY_SCHEDULE: '30' },
  });
  const api = await playwright.request.newContext({ baseURL: server.url });
  try {
    const auth = bearer(await tokenFor(api, TENANT_A));
    const port = new URL(receiver.url('/')).port;
    const saved = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
      headers: auth,
      data: { url: `http://receptor.exemplo.com.br:${port}/ssrf` },
    });
    expect(saved.status()).toBe(200);

    const created = await api.post(apiPath(routes.sendTestEvent, { id: WEBHOOK_IDS.a1 }), { headers: auth });
    const { id } = (await created.json()) as { id: string };
    const detailPath = apiPath(routes.getDelivery, { id: WEBHOOK_IDS.a1, entregaId: id });
    await expect
      .poll(async () => ((await (await api.get(detailPath, { headers: auth })).json()) as { tentativas: number }).tentativas, {
        timeout: 15_000,
      })
      .toBe(1);
    const detail = (await (await api.get(detailPath, { headers: auth })).json()) as {
      ultimaResposta: { status: number | null; erro: string };
    };
    expect(detail.ultimaResposta).toMatchObject({ status: null, erro: 'destino-bloqueado' });
    expect(receiver.received).toHaveLength(0);
  } finally {
    await api.dispose();
    await server.stop();
    await receiver.stop();
    await dns.stop();
    await database.drop();
  }
});

/** A target of each kind on `host:port` (plain connections: the server allows them here). */
const KIND_TARGETS = [
  { kind: 'HTTP', target: (host: string, port: number) => `http://${host}:${port}/ssrf` },
  { kind: 'RabbitMQ', target: (host: string, port: number) => `amqp://${host}:${port}/?routingKey=x` },
  { kind: 'NATS', target: (host: string, port: number) => `nats://${host}:${port}?subject=x` },
  { kind: 'NATS over TLS', target: (host: string, port: number) => `tls://${host}:${port}?subject=x` },
];

/** Points a1 at `url`, sends it the test event and answers its first attempt's error. */
async function firstAttemptError(api: APIRequestContext, auth: Record<string, string>, url: string): Promise<string> {
  const saved = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), { headers: auth, data: { url } });
  expect(saved.status(), url).toBe(200);
  const created = await api.post(apiPath(routes.sendTestEvent, { id: WEBHOOK_IDS.a1 }), { headers: auth });
  const { id } = (await created.json()) as { id: string };
  const detailPath = apiPath(routes.getDelivery, { id: WEBHOOK_IDS.a1, entregaId: id });
  let erro = '';
  await expect
    .poll(
      async () => {
        const detail = (await (await api.get(detailPath, { headers: auth })).json()) as {
          tentativas: number;
          ultimaResposta: { erro: string } | null;
        };
        erro = detail.ultimaResposta?.erro ?? '';
        return detail.tentativas;
      },
      { timeout: 15_000 },
    )
    .toBe(1);
  return erro;
}

/**
 * Every kind, through the product (issue 43): a public-looking name our DNS server answers with a
 * loopback address is refused (`destino-bloqueado`), and the server listening there never sees a
 * connection, whatever the kind's client library would have done with the name.
 */
test('a name that resolves to a loopback address is never connected to, for every kind', async ({ playwright }) => {
  test.setTimeout(120_000);
  const trap = await new CountingServer('silent').start(['127.0.0.1']);
  const dns = await new DnsServer('127.0.0.1').start();
  const database = await privateDatabase('ssrf_kinds');
  const server = await startServer({
    dataDir: newDataDir('ssrf-kinds'),
    env: { ...database.env, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_DNS_SERVERS: dns.address, WEBHOOK_RETRY_SCHEDULE: '60' },
  });
  const api = await playwright.request.newContext({ baseURL: server.url });
  try {
    const auth = bearer(await tokenFor(api, TENANT_A));
    for (const { kind, target } of KIND_TARGETS) {
      expect(await firstAttemptError(api, auth, target('destino.exemplo.com.br', trap.port)), kind).toBe('destino-bloqueado');
    }
    expect(trap.acceptedAt('127.0.0.1')).toBe(0);
  } finally {
    await api.dispose();
    await server.stop();
    await Promise.all([trap.stop(), dns.stop()]);
    await database.drop();
  }
});

/**
 * Rebinding, for every kind, through the product: the name's first answer (127.0.0.2, allowed
 * here: private targets are, so the first answer passes) is checked, its next one (127.0.0.1) is
 * where the client library would go if it resolved the name again (the system resolver says
 * 127.0.0.1 for `localhost` too). The attempt connects to the first, times out against its silence
 * and leaves no socket open; the trap on the next one never sees a connection.
 */
test('an attempt connects only to the address its name first resolved to, for every kind', async ({ playwright }) => {
  test.setTimeout(120_000);
  const checked = await new CountingServer('silent').start(['127.0.0.2']);
  const trap = await new CountingServer('silent').start(['127.0.0.1'], checked.port);
  const dns = await new DnsServer('127.0.0.2').start();
  const database = await privateDatabase('ssrf_rebind');
  const server = await startServer({
    dataDir: newDataDir('ssrf-rebind'),
    env: {
      ...database.env,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_DNS_SERVERS: dns.address,
      WEBHOOK_RETRY_SCHEDULE: '60',
      WEBHOOK_TIMEOUT_MS: '1000',
    },
  });
  const api = await playwright.request.newContext({ baseURL: server.url });
  try {
    const auth = bearer(await tokenFor(api, TENANT_A));
    for (const [index, { kind, target }] of KIND_TARGETS.entries()) {
      dns.answer(['127.0.0.2', '127.0.0.1']);
      expect(await firstAttemptError(api, auth, target('localhost', checked.port)), kind).toBe('tempo-esgotado');
      expect(checked.acceptedAt('127.0.0.2'), kind).toBe(index + 1);
      expect(trap.acceptedAt('127.0.0.1'), kind).toBe(0);
      await expect.poll(() => checked.open, { message: kind }).toBe(0);
    }
  } finally {
    await api.dispose();
    await server.stop();
    await Promise.all([checked.stop(), trap.stop(), dns.stop()]);
    await database.drop();
  }
});
