import type { APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { expect, test } from '../support/browser-test';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { Receiver, type Received } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Issue 45 in the console, in Chromium, against a server of its own and a real receiver on
 * 127.0.0.1: a configuration the worker switched off (its receiver answered 410) is switched back
 * on from the page, which then offers to send again what was skipped while off, and does
 * (configuracao.religada goes to the operator meanwhile); and an ordered configuration's log says
 * which event holds the others back and since when.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });

let server: RunningServer;
let receiver: Receiver;
let api: APIRequestContext;
let tenantA: Record<string, string>;
let producer: Record<string, string>;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  receiver.script('/ops', { status: 204 });
  server = await startServer({
    dataDir: newDataDir('recovery-console'),
    env: {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Retries soon, then not within the spec: a held head stays held while the page is read.
      WEBHOOK_RETRY_SCHEDULE: '0.3,0.3,600',
      WEBHOOK_ORDERED_HOLD_MINUTES: '30',
      OPERATIONAL_WEBHOOK_URL: receiver.url('/ops'),
      // The alert scan raises the switch-off's incident and ends it once switched back on (which is
      // what sends configuracao.religada): every half second here, not every 30 s.
      WEBHOOK_ALERT_CHECK_SECONDS: '0.5',
    },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
  producer = bearer(await tokenFor(api, PRODUCER));
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await receiver?.stop();
});

async function configure(id: string, data: Record<string, unknown>) {
  const response = await api.put(apiPath(routes.updateWebhookConfiguration, { id }), {
    headers: tenantA,
    data: { headers: [], ...FLAGS_OFF, ...data },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function publish(tipo: string, idEvento: string, dados: Record<string, unknown> = {}) {
  const response = await api.post(apiPath(routes.publishEvent), {
    headers: producer,
    data: { tipo, usuarioId: TENANT_A.usuarioId, idEvento, dados },
  });
  expect(response.status()).toBe(202);
}

const config = async (id: string) =>
  (await (await api.get(apiPath(routes.getWebhookConfiguration, { id }), { headers: tenantA })).json()) as { ativo: boolean };

test('switched back on after an outage, the page offers to recover what was skipped while off, and the recovery sends it', async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const id = WEBHOOK_IDS.a1;
  // The receiver is gone (410): the worker switches the configuration off; later events are skipped.
  receiver.script('/volta', { status: 410 });
  await configure(id, { url: receiver.url('/volta'), eventoAvaliacaoSaudeArquivada: true });
  await publish('eventoAvaliacaoSaudeArquivada', 'volta-0');
  await expect.poll(async () => (await config(id)).ativo, { timeout: 20_000 }).toBe(false);
  await publish('eventoAvaliacaoSaudeArquivada', 'volta-1');
  await publish('eventoAvaliacaoSaudeArquivada', 'volta-2');
  // The receiver is back.
  receiver.script('/volta', { status: 204 });

  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, `/webhooks/${id}`);
  await expect(page.getByText('As entregas estão desativadas')).toBeVisible();
  await page.getByLabel('Enviar eventos a este receptor').check();
  await page.getByRole('button', { name: 'Salvar', exact: true }).click();

  // Switched on is not recovered: the page says the receiver is unconfirmed and offers the recovery.
  const offer = page.getByRole('status').filter({ hasText: 'Entregas religadas: o receptor ainda não foi confirmado' });
  await expect(offer).toBeVisible();
  await expect(offer).toContainText('2 entregas foram ignoradas');
  await page.screenshot({ path: testInfo.outputPath('recovery-offer.png'), fullPage: false });
  await expectNoSeriousA11yViolations(page);
  await offer.getByRole('button', { name: 'Recuperar 2 entregas ignoradas' }).click();
  await expect(offer).toContainText('Entregas enfileiradas de novo: 2.');

  // The skipped events reach the receiver; the operator heard of the switch-on as configuracao.religada.
  const idEventoOf = (request: Received) => (JSON.parse(request.body) as { data: { idEvento: string } }).data.idEvento;
  await expect
    .poll(
      () =>
        receiver
          .at('/volta')
          .filter((request) => request.answered === 204)
          .map(idEventoOf)
          .sort(),
      { timeout: 20_000 },
    )
    .toEqual(['volta-1', 'volta-2']);
  await expect
    .poll(() =>
      receiver
        .at('/ops')
        .map(
          (request) => JSON.parse(request.body) as { type: string; data: { configuracao?: { id: string }; receptorConfirmado?: boolean } },
        )
        .filter((message) => message.type === 'configuracao.religada' && message.data.configuracao?.id === id)
        .map((message) => message.data.receptorConfirmado),
    )
    .toEqual([false]);
  await context.close();
});

test('an ordered configuration’s log says which event holds the others back, and since when', async ({ browser }, testInfo) => {
  test.setTimeout(60_000);
  const id = WEBHOOK_IDS.a2;
  const indexOf = (request: Received) => (JSON.parse(request.body) as { data: { i: number } }).data.i;
  // The first event is refused for good (400: retried, no outage); the rest would be taken.
  receiver.decide('/fila', (request) => (indexOf(request) === 0 ? { status: 400 } : { status: 204 }));
  await configure(id, { url: receiver.url('/fila'), eventoPropostaCancelada: true, entregaOrdenada: true });
  for (let i = 0; i < 3; i++) await publish('eventoPropostaCancelada', `fila-${i}`, { i });
  type Row = { idEvento: string; retidaPor: { desde: string | null } | null };
  await expect
    .poll(
      async () => {
        const rows = (await (await api.get(apiPath(routes.listDeliveries, { id }), { headers: tenantA })).json()) as Row[];
        return rows.filter((row) => row.idEvento !== 'fila-0' && row.retidaPor?.desde).length;
      },
      { timeout: 20_000 },
    )
    .toBe(2);

  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, `/webhooks/${id}`);
  const held = page.locator('li[data-delivery-id]').filter({ hasText: 'idEvento fila-2' });
  // The deliveries panel loads after hydration, with its own code: a loaded machine takes a while.
  await expect(held).toContainText('Aguardando a entrega anterior (entregaOrdenada)', { timeout: 30_000 });
  await expect(held).toContainText(
    /Retida pela entrega do evento fila-0, que falha desde .+; ela será abandonada em .+, se não for entregue antes/,
  );
  const head = page.locator('li[data-delivery-id]').filter({ hasText: 'idEvento fila-0' });
  await expect(head).not.toContainText('Retida pela');
  await held.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('held-by.png'), fullPage: false });
  expect(receiver.at('/fila').every((request) => indexOf(request) === 0)).toBe(true);
  await context.close();
});
