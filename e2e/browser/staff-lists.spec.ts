import { request as playwrightRequest, type Browser } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { ALERTS_PAGE_SIZE, TRIAGE_PAGE_SIZE } from '@/lib/webhooks/delivery/fields';
import { expect, test } from '../support/browser-test';
import { bearer, tokenFor } from '../support/api';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF, TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The console's paged staff lists and quota refusals (issue 27), in Chromium, on a server of its
 * own. Tenant A has more configurations than a triage page holds and more alerts than the alert
 * notice shows at once (its receivers answer 410); tenant B has one receiver down. The notice and
 * the triage page show B's alert on their first page and page through the rest; past a quota the
 * console says so in the reader's language, with the limit.
 */
test.describe.configure({ mode: 'serial' });

const ALERTED = ALERTS_PAGE_SIZE + 1;
/** Seeded: ten of tenant A's and one of B's. */
const SEEDED_A = 10;
const EXTRA = TRIAGE_PAGE_SIZE - SEEDED_A - ALERTED + 5;
const CONFIGS_A = SEEDED_A + ALERTED + EXTRA;
const TOTAL = CONFIGS_A + 1;

let server: RunningServer;
let receiver: Receiver;
const alertedIds: string[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  receiver = await new Receiver().start();
  receiver.script('/z-fora', { status: 503 });
  server = await startServer({
    dataDir: newDataDir('staff-lists-console'),
    env: {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '600',
      WEBHOOK_CIRCUIT_FAILURES: '1',
      WEBHOOK_CIRCUIT_OPEN_SECONDS: '600',
      WEBHOOK_ALERT_CIRCUIT_MINUTES: '0',
      WEBHOOK_ALERT_CHECK_SECONDS: '0.3',
      // Tenant A ends the set-up exactly at its quota; one test event a minute per configuration.
      MAX_WEBHOOKS_PER_TENANT: String(CONFIGS_A),
      MAX_TEST_EVENTS_PER_MINUTE: '1',
    },
  });
  const api = await playwrightRequest.newContext({ baseURL: server.url });
  const tenantA = bearer(await tokenFor(api, TENANT_A));
  const tenantB = bearer(await tokenFor(api, TENANT_B));
  for (let i = 0; i < ALERTED + EXTRA; i++) {
    const path = i < ALERTED ? `/a-fora-${i}` : `/a-saudavel-${i}`;
    receiver.script(path, { status: i < ALERTED ? 410 : 204 });
    const created = await api.post(apiPath(routes.listWebhookConfigurations), { headers: tenantA, data: { url: receiver.url(path) } });
    expect(created.status()).toBe(201);
    if (i < ALERTED) alertedIds.push(((await created.json()) as { id: string }).id);
  }
  expect(
    (
      await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.b1 }), {
        headers: tenantB,
        data: { url: receiver.url('/z-fora') },
      })
    ).status(),
  ).toBe(200);
  for (const [id, headers] of [...alertedIds.map((id) => [id, tenantA] as const), [WEBHOOK_IDS.b1, tenantB] as const]) {
    expect((await api.post(apiPath(routes.sendTestEvent, { id }), { headers })).status()).toBe(202);
  }
  await api.dispose();
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
});

async function openTriage(browser: Browser, locale: 'pt-BR' | 'en') {
  const context = await browser.newContext({ baseURL: server.url, locale });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, '/webhooks/saude');
  return page;
}

test('past a quota the console says which limit, in the reader’s language', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR' });
  const page = await context.newPage();
  // A second test event within the minute to a configuration that already had its one (first: the set-up's was moments ago).
  await signIn(page, STAFF.webhooks, `/webhooks/${alertedIds[0]!}`);
  await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
  await expect(
    page.getByText(
      /^Esta configuração já recebeu 1 evento de teste no último minuto, o máximo permitido\. Envie outro daqui a \d+ segundos?\.$/,
    ),
  ).toBeVisible();

  // Tenant A is at its quota: staff creating one more for it are told so.
  await page.goto('/webhooks/new');
  await page.getByLabel('usuarioId').fill(TENANT_A.usuarioId);
  await page.getByLabel('sistemaOrigem').fill(String(TENANT_A.sistemaOrigem));
  await page.getByLabel('url', { exact: true }).fill('https://mais-uma.receptor-a.exemplo.com.br/eventos');
  await page.getByRole('button', { name: 'Criar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Este cliente' })).toHaveText(
    `Este cliente já tem ${CONFIGS_A} configurações de webhook, o máximo permitido. Apague uma antes de criar outra.`,
  );
  await expectNoSeriousA11yViolations(page);
  await context.close();
});

test('the alert notice shows a few at a time, tenant B’s on the first page, and pages through the rest', async ({ browser }) => {
  const page = await openTriage(browser, 'pt-BR');
  const notice = page.getByTestId('delivery-alerts');
  const pager = page.getByRole('navigation', { name: 'Páginas dos alertas de entrega' });
  // Every incident alerted (the check runs every 0.3 s; the notice refreshes when the page opens).
  await expect(async () => {
    await page.reload();
    await expect(pager).toContainText(`Alertas 1–${ALERTS_PAGE_SIZE} de ${ALERTED + 1}`, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(notice.getByRole('listitem')).toHaveCount(ALERTS_PAGE_SIZE);
  await expect(notice.locator(`[data-alert-for="${WEBHOOK_IDS.b1}"]`)).toContainText(
    `O receptor ${receiver.url('/z-fora')} parece fora do ar desde `,
  );
  await expect(pager.getByRole('button', { name: 'Anterior' })).toBeDisabled();
  await pager.getByRole('button', { name: 'Próxima' }).click();
  await expect(pager).toContainText(`Alertas ${ALERTS_PAGE_SIZE + 1}–${ALERTED + 1} de ${ALERTED + 1}`);
  await expect(notice.getByRole('listitem')).toHaveCount(ALERTED + 1 - ALERTS_PAGE_SIZE);
  await expect(notice.locator(`[data-alert-for="${WEBHOOK_IDS.b1}"]`)).toHaveCount(0);
  await expect(pager.getByRole('button', { name: 'Próxima' })).toBeDisabled();
  await pager.getByRole('button', { name: 'Anterior' }).click();
  await expect(notice.locator(`[data-alert-for="${WEBHOOK_IDS.b1}"]`)).toBeVisible();
  await page.context().close();
});

test('the triage page: open alerts first, tenant B’s on page 1, a page in the address, pt-BR and English', async ({ browser }) => {
  // Two languages, four page loads, an accessibility scan and a full-page screenshot.
  test.setTimeout(120_000);
  const page = await openTriage(browser, 'pt-BR');
  const pager = page.getByRole('navigation', { name: 'Páginas da saúde das entregas' }).first();
  await expect(pager).toContainText(`Configurações 1–${TRIAGE_PAGE_SIZE} de ${TOTAL}`);
  const rows = page.getByTestId('triage-list').getByRole('listitem');
  await expect(rows).toHaveCount(TRIAGE_PAGE_SIZE);
  const victim = rows.and(page.locator(`[data-webhook-id="${WEBHOOK_IDS.b1}"]`));
  await expect(victim).toContainText('Alerta aberto');
  await expect(victim).toHaveAttribute('data-state', 'circuito-aberto');
  // Every configuration with an open alert comes before the first without one.
  const alerts = await rows.evaluateAll((items) => items.map((item) => item.hasAttribute('data-alert')));
  expect(alerts.slice(0, ALERTED + 1).every(Boolean)).toBe(true);
  expect(alerts.slice(ALERTED + 1).some(Boolean)).toBe(false);
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath('staff-triage-paged.png'), fullPage: true });

  await pager.getByRole('link', { name: 'Próxima' }).click();
  await expect(page).toHaveURL(/\/webhooks\/saude\?pagina=2$/);
  await expect(pager).toContainText(`Configurações ${TRIAGE_PAGE_SIZE + 1}–${TOTAL} de ${TOTAL}`);
  await expect(rows).toHaveCount(TOTAL - TRIAGE_PAGE_SIZE);
  await expect(page.locator(`[data-webhook-id="${WEBHOOK_IDS.b1}"]`)).toHaveCount(0);
  await page.reload();
  await expect(rows).toHaveCount(TOTAL - TRIAGE_PAGE_SIZE);
  await pager.getByRole('link', { name: 'Anterior' }).click();
  await expect(page).toHaveURL(/\/webhooks\/saude$/);
  await expect(rows).toHaveCount(TRIAGE_PAGE_SIZE);
  await page.context().close();

  const english = await openTriage(browser, 'en');
  await expect(english.getByRole('navigation', { name: 'Delivery health pages' }).first()).toContainText(
    `Configurations 1–${TRIAGE_PAGE_SIZE} of ${TOTAL}`,
  );
  await expect(english.getByRole('navigation', { name: 'Delivery alert pages' })).toContainText(
    `Alerts 1–${ALERTS_PAGE_SIZE} of ${ALERTED + 1}`,
  );
  await expect(english.locator(`[data-webhook-id="${WEBHOOK_IDS.b1}"]`)).toContainText('Open alert');
  await english.context().close();
});
