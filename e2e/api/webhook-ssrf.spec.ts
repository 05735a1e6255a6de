import { expect, test } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
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
