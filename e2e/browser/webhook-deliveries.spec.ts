import type { Browser, Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { apiPath, routes } from '@/lib/api/routes';
import { expect, test } from '../support/browser-test';
import { bearer } from '../support/api';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The delivery half of the configuration page, in Chromium, against a server of its own whose
 * receivers may be on loopback (the development relaxations) and a real receiver on 127.0.0.1.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });

let server: RunningServer;
let receiver: Receiver;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  server = await startServer({
    dataDir: newDataDir('deliveries-console'),
    env: {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0.3,0.3',
      // a3's receiver is down: its circuit opens after two outages and stays open through the spec.
      WEBHOOK_CIRCUIT_FAILURES: '2',
      WEBHOOK_CIRCUIT_OPEN_SECONDS: '600',
      // Staff hear of an open circuit at once (the default waits 15 minutes).
      WEBHOOK_ALERT_CIRCUIT_MINUTES: '0',
      WEBHOOK_ALERT_CHECK_SECONDS: '0.5',
    },
  });
  const api = await playwright.request.newContext({ baseURL: server.url });
  const token = await api.post(apiPath(routes.issueToken), {
    form: { grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret },
  });
  const auth = bearer(((await token.json()) as { access_token: string }).access_token);
  const saved = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
    headers: auth,
    data: { url: receiver.url('/console') },
  });
  expect(saved.status()).toBe(200);
  receiver.script('/fora', { status: 503 });
  const down = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a3 }), {
    headers: auth,
    data: { url: receiver.url('/fora') },
  });
  expect(down.status()).toBe(200);
  await api.dispose();
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
});

async function openConfiguration(browser: Browser, id: string = WEBHOOK_IDS.a1): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR' });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, '/webhooks');
  await page.goto(`/webhooks/${id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Entregas de eventos' })).toBeVisible();
  return page;
}

test('a test event arrives signed with the secret the page reveals; its attempt is shown masked; Reenviar sends it again', async ({
  browser,
}) => {
  const page = await openConfiguration(browser);
  await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
  await expect(page.getByTestId('test-outcome')).toHaveText(/^Evento de teste entregue \(HTTP 204 · \d+ ms\)\.$/);
  const [request] = await receiver.waitFor('/console', 1);

  await page.getByRole('button', { name: 'Mostrar segredo' }).click();
  await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const secret = (await page.getByTestId('signing-secret').textContent())!;
  expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.teste' });

  const row = page.getByTestId('delivery-list').getByRole('listitem').first();
  await expect(row).toContainText('Entregue');
  await expect(row).toContainText('webhook.teste');
  await row.getByRole('button', { name: 'Detalhes' }).click();
  await expect(row).toContainText(`webhook-id${request!.headers['webhook-id'] as string}`);
  await expect(row).toContainText('X-Api-Key••••••');
  await expect(row).not.toContainText('segredo-do-receptor');
  await expectNoSeriousA11yViolations(page);

  await row.getByRole('button', { name: 'Reenviar' }).click();
  const [, second] = await receiver.waitFor('/console', 2);
  expect(second!.headers['webhook-id']).toBe(request!.headers['webhook-id']);
  await expect(row).toContainText('2 tentativas');
  await page.context().close();
});

test('rotating the secret asks first, then shows the new one', async ({ browser }) => {
  const page = await openConfiguration(browser);
  await page.getByRole('button', { name: 'Mostrar segredo' }).click();
  await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const before = await page.getByTestId('signing-secret').textContent();
  page.once('dialog', (dialog) => void dialog.dismiss());
  await page.getByRole('button', { name: 'Gerar novo segredo' }).click();
  await expect(page.getByTestId('signing-secret')).toHaveText(before!);

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Gerar novo segredo' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Novo segredo gerado' })).toBeVisible();
  await expect(page.getByTestId('signing-secret')).not.toHaveText(before!);
  await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await page.context().close();
});

test('switching deliveries off is saved with the form and says since when', async ({ browser }) => {
  // a2 keeps its seeded https URL.
  const page = await openConfiguration(browser, WEBHOOK_IDS.a2);
  await page.getByLabel('Enviar eventos a este receptor').uncheck();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();
  await expect(page.getByText(/^Desativadas manualmente em /)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.context().close();
});

test('a receiver that is down pauses its deliveries: the page says so and until when, the log says why, and finds an event by its evt_ id', async ({
  browser,
}) => {
  const page = await openConfiguration(browser, WEBHOOK_IDS.a3);
  await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
  await expect(page.getByTestId('test-outcome')).toContainText('HTTP 503');
  // Two 503s in a row (the first attempt and its retry 0.3 s later) open the circuit.
  await receiver.waitFor('/fora', 2);
  // The state card is read with the page: it shows the pause once the second outage is recorded.
  const paused = page.getByText('Entregas em pausa: o receptor parece fora do ar');
  await expect(async () => {
    await page.reload();
    await expect(paused).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByText(/^2 tentativas seguidas falharam \(tempo esgotado, conexão recusada ou erro 5xx\) desde /)).toBeVisible();

  const row = page.getByTestId('delivery-list').getByRole('listitem').first();
  // Pending, but its attempts failed: it reads as a failure waiting for its retry.
  await expect(row).toContainText('Falhou, tentará de novo');
  await expect(row).toContainText('Aguardando o receptor voltar; próxima tentativa:');
  const eventId = /evt_[0-9a-z]+/.exec((await row.textContent())!)![0];

  const filter = page.getByLabel('Evento', { exact: true });
  await filter.fill('evt_nenhum');
  await expect(page.getByText('Nenhuma entrega com esses filtros.')).toBeVisible();
  await expect(page.getByTestId('delivery-list').getByRole('listitem')).toHaveCount(0);
  await filter.fill(eventId);
  await expect(page.getByTestId('delivery-list').getByRole('listitem')).toHaveCount(1);
  await expect(page.getByTestId('delivery-list').getByRole('listitem').first()).toContainText(eventId);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath('circuit-open.png'), fullPage: true });
  await page.context().close();
});

test('the configuration page charts its attempts hour by hour, with the same figures as a table', async ({ browser }) => {
  const page = await openConfiguration(browser, WEBHOOK_IDS.a1);
  const card = page.getByRole('region', { name: 'Saúde das entregas' });
  await expect(card.getByText('Entregando')).toBeVisible();
  // The first test's event and its redelivery: two attempts, both answered 204.
  await expect(card.getByRole('definition').first()).toHaveText(/^[1-9]\d*$/);
  await expect(card.getByText('100%')).toBeVisible();
  const chart = card.getByRole('img', { name: /^Últimas 24 horas: \d+ tentativas entregues e 0 falhas; taxa de sucesso 100%\.$/ });
  await expect(chart.locator('canvas')).toBeVisible();
  await card.getByText('Ver como tabela').click();
  // The header and this hour's row (two, when the spec crossed an hour).
  const table = card.getByRole('table', { name: 'Saúde das entregas' });
  await expect(table.getByRole('row').nth(1)).toContainText(/^\d\d\/\d\d\/\d{4},? \d\d:\d\d/);
  expect(await table.getByRole('row').count()).toBeLessThanOrEqual(3);
  await card.getByRole('button', { name: 'Últimos 7 dias' }).click();
  await expect(card.getByRole('button', { name: 'Últimos 7 dias' })).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByRole('img', { name: /^Últimos 7 dias: / })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath('delivery-health.png'), fullPage: true });
  await page.context().close();
});

test('the triage page lists every configuration worst first, each with its success rate and last day', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR' });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, '/webhooks');
  await page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Saúde das entregas' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Saúde das entregas' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Saúde das entregas' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('link', { name: 'Webhooks' })).not.toHaveAttribute('aria-current', 'page');
  // The open circuit is an alert on every webhooks page; a2, switched off by hand, is not.
  await expect(page.getByTestId('delivery-alerts').getByRole('listitem')).toHaveCount(1);
  await expect(page.getByTestId('delivery-alerts')).toContainText(`O receptor ${receiver.url('/fora')} parece fora do ar desde `);
  const rows = page.getByTestId('triage-list').getByRole('listitem');
  // a3's receiver is down (its circuit is open), a2 was switched off; the healthy ones follow.
  await expect(rows.first()).toHaveAttribute('data-state', 'circuito-aberto');
  await expect(rows.first()).toContainText('Pausada (receptor fora do ar)');
  await expect(rows.first()).toContainText('0%');
  await expect(rows.nth(1)).toHaveAttribute('data-state', 'desativada');
  const healthy = page.locator(`[data-webhook-id="${WEBHOOK_IDS.a1}"]`);
  await expect(healthy).toHaveAttribute('data-state', 'saudavel');
  await expect(healthy.getByRole('img', { name: /^Últimas 24 horas: [1-9]\d* entregues, 0 falharam$/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath('delivery-triage.png'), fullPage: true });
  await healthy.getByRole('link', { name: /^Abrir a configuração / }).click();
  await expect(page).toHaveURL(new RegExp(`/webhooks/${WEBHOOK_IDS.a1}$`));
  await context.close();
});
