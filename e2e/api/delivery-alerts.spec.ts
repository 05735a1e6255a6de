import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { privateDatabase } from '../support/databases';
import { MailServer } from '../support/mail-server';
import { Receiver } from '../support/receiver';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, STAFF, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Delivery alerts (issue 20 §4): a configuration switched off by the worker, or whose receiver
 * stays down past WEBHOOK_ALERT_CIRCUIT_MINUTES, is told to the staff who look after webhooks —
 * once per incident, by e-mail through a real SMTP server on 127.0.0.1, pt-BR then English — and
 * listed for the console until the incident ends.
 */
test.describe.configure({ mode: 'serial' });

type Alert = { id: string; configuracaoId: string; url: string; usuarioId: string; tipo: string; desde: string };

let server: RunningServer;
let receiver: Receiver;
let mail: MailServer;
let api: APIRequestContext;
let database: Awaited<ReturnType<typeof privateDatabase>> | undefined;
let tenantA: Record<string, string>;
let producer: Record<string, string>;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  receiver.script('/gone', { status: 410 });
  receiver.script('/fora', { status: 503 });
  receiver.script('/ok', { status: 204 });
  mail = await new MailServer().start();
  database = await privateDatabase('alerts');
  const port = await freePort();
  server = await startServer({
    port,
    dataDir: newDataDir('alerts'),
    env: {
      ...database.env,
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: mail.url(),
      SMTP_FROM: 'Integration Console <no-reply@hospital.exemplo.com.br>',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.1,0.1,0.1,0.1,600',
      WEBHOOK_CIRCUIT_FAILURES: '2',
      WEBHOOK_CIRCUIT_OPEN_SECONDS: '0.5',
      WEBHOOK_ALERT_CIRCUIT_MINUTES: '0.02',
      WEBHOOK_ALERT_CHECK_SECONDS: '0.3',
    },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
  producer = bearer(await tokenFor(api, PRODUCER));
});

test.afterAll(async () => {
  await api?.dispose();
  await receiver?.stop();
  await server?.stop();
  await mail?.stop().catch(() => undefined);
  await database?.drop();
});

/** Points a configuration at `path` with one event flag on (no other of tenant A's has it), then publishes `count` such events. */
async function deliverTo(
  id: string,
  path: string,
  tipo: 'eventoAvaliacaoSaudeArquivada' | 'eventoAvaliacaoSaudeDesarquivada',
  count: number,
) {
  const saved = await api.put(apiPath(routes.updateWebhookConfiguration, { id }), {
    headers: tenantA,
    data: { url: receiver.url(path), headers: [], ...FLAGS_OFF, [tipo]: true },
  });
  expect(saved.status()).toBe(200);
  for (let i = 0; i < count; i++) {
    const published = await api.post(apiPath(routes.publishEvent), {
      headers: producer,
      data: { tipo, usuarioId: TENANT_A.usuarioId, idEvento: `alerta-${id}-${i}-${Date.now()}`, dados: {} },
    });
    expect(published.status()).toBe(202);
  }
}

const alerts = async (headers: Record<string, string>) =>
  ((await (await api.get(apiPath(routes.listDeliveryAlerts), { headers })).json()) as { itens: Alert[] }).itens;
const mailsTo = (email: string, subject: string) =>
  mail.received.filter((message) => message.to.includes(email) && message.subject.startsWith(subject));

test('a receiver answering 410 is switched off: staff who look after webhooks get one e-mail, pt-BR then English, and the console lists it', async () => {
  await deliverTo(WEBHOOK_IDS.a1, '/gone', 'eventoAvaliacaoSaudeArquivada', 2);
  await expect.poll(() => mailsTo(STAFF.webhooks.email, 'Entregas desativadas').length, { timeout: 15_000 }).toBe(1);
  await expect.poll(() => mailsTo(STAFF.admin.email, 'Entregas desativadas').length).toBe(1);
  const [message] = mailsTo(STAFF.webhooks.email, 'Entregas desativadas');
  expect(message!.subject).toBe('Entregas desativadas / Deliveries switched off — Integration Console');
  expect(message!.text.indexOf('Olá, Bruno Webhooks.')).toBeLessThan(message!.text.indexOf('Hello, Bruno Webhooks.'));
  expect(message!.text).toContain(receiver.url('/gone'));
  expect(message!.text).toContain(`${server.url}/webhooks/${WEBHOOK_IDS.a1}`);
  // Scheduling staff do not look after webhooks.
  expect(mail.received.some((received) => received.to.includes(STAFF.scheduling.email))).toBe(false);

  const open = await alerts(tenantA);
  expect(open).toEqual([expect.objectContaining({ configuracaoId: WEBHOOK_IDS.a1, tipo: 'desativada', url: receiver.url('/gone') })]);
  expect(await alerts(bearer(await tokenFor(api, TENANT_B)))).toEqual([]);
  // Several checks later, still one message: once per incident.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(mailsTo(STAFF.webhooks.email, 'Entregas desativadas')).toHaveLength(1);
});

test('a receiver down past the threshold: one e-mail however many attempts fail, and the alert ends once it delivers again', async () => {
  await deliverTo(WEBHOOK_IDS.a2, '/fora', 'eventoAvaliacaoSaudeDesarquivada', 3);
  await expect.poll(() => mailsTo(STAFF.webhooks.email, 'Receptor fora do ar').length, { timeout: 15_000 }).toBe(1);
  expect(mailsTo(STAFF.webhooks.email, 'Receptor fora do ar')[0]!.text).toContain('The receiver http://127.0.0.1:');
  await expect.poll(async () => (await alerts(tenantA)).map((alert) => alert.tipo).sort()).toEqual(['circuito-aberto', 'desativada']);
  // The circuit probes every half second and keeps failing: more attempts, no more mail.
  const attempts = receiver.at('/fora').length;
  await expect.poll(() => receiver.at('/fora').length, { timeout: 10_000 }).toBeGreaterThan(attempts);
  expect(mailsTo(STAFF.webhooks.email, 'Receptor fora do ar')).toHaveLength(1);

  // The receiver is back: the next probe succeeds, the circuit closes and the alert ends.
  receiver.script('/fora', { status: 204 });
  await expect.poll(async () => (await alerts(tenantA)).map((alert) => alert.tipo), { timeout: 15_000 }).toEqual(['desativada']);
});

test('switching a disabled configuration back on ends its alert', async () => {
  const switched = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
    headers: tenantA,
    data: { url: receiver.url('/ok'), ativo: true },
  });
  expect(switched.status()).toBe(200);
  await expect.poll(async () => alerts(tenantA), { timeout: 10_000 }).toEqual([]);
});
