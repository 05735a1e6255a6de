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

const HOUR_MS = 3_600_000;

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
  await expect(page.getByRole('region', { name: 'Entregas', exact: true }).getByText(/^Desativadas manualmente em /)).toBeVisible();
  // The health section below says why too, not "Desativada" alone (issue 32).
  await page.reload();
  const health = page.getByRole('region', { name: 'Saúde das entregas' });
  await expect(health.getByText('Desativada', { exact: true })).toBeVisible();
  await expect(health.getByText(/^Desativadas manualmente em \d\d\/\d\d\/\d{4},? \d\d:\d\d\.$/)).toBeVisible();
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

/**
 * The chart's canvas, read back: for each column of the plot (CSS pixels from its left edge), whether
 * it has a delivered (green) or a failed (red) pixel, and the plot's width.
 */
async function barColumns(page: Page) {
  return page.getByTestId('health-chart').evaluate((chart) => {
    const canvas = chart.querySelector('canvas')!;
    const plot = chart.querySelector<HTMLElement>('.u-over')!.getBoundingClientRect();
    const box = canvas.getBoundingClientRect();
    const scale = canvas.width / box.width;
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    const near = (i: number, [r, g, b]: number[]) =>
      Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 60 && data[i + 3]! > 200;
    const columns = { delivered: new Set<number>(), failed: new Set<number>() };
    for (let y = 0; y < canvas.height; y++)
      for (let x = 0; x < canvas.width; x++) {
        const i = (y * canvas.width + x) * 4;
        const column = Math.floor((x / scale + box.left - plot.left) * 10) / 10;
        if (near(i, [5, 150, 105])) columns.delivered.add(column); // emerald-600
        if (near(i, [220, 38, 38])) columns.failed.add(column); // red-600
      }
    const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b);
    return { width: plot.width, delivered: sorted(columns.delivered), failed: sorted(columns.failed) };
  });
}

test('the chart draws the current hour’s failed attempts whole inside the plot, and nothing for hours without attempts', async ({
  browser,
}) => {
  // a3's receiver is down: its attempts this hour all failed (HTTP 503).
  const page = await openConfiguration(browser, WEBHOOK_IDS.a3);
  const card = page.getByRole('region', { name: 'Saúde das entregas' });
  await expect(card.getByRole('img', { name: /^Últimas 24 horas: 0 tentativas entregues e [1-9]\d* falhas/ })).toBeVisible();
  for (const window of ['Últimas 24 horas', 'Últimos 7 dias'] as const) {
    await card.getByRole('button', { name: window }).click();
    await expect(card.getByRole('img', { name: new RegExp(`^${window}: `) }).locator('canvas')).toBeVisible();
    await expect.poll(async () => (await barColumns(page)).failed.length).toBeGreaterThan(0);
    const { width, delivered, failed } = await barColumns(page);
    const hours = window === 'Últimas 24 horas' ? 24 : 168;
    // The red bar of the hour of a3's latest attempt (this hour's, unless the clock has just
    // turned past one since): inside the plot, in that hour's slot, and wider than a hairline.
    const latest = Math.max(...receiver.at('/fora').map((request) => request.at));
    const slot = hours - 1 - (Math.floor(Date.now() / HOUR_MS) - Math.floor(latest / HOUR_MS));
    const inSlot = failed.filter((x) => x >= width * (slot / hours) - 1);
    expect(inSlot.length, window).toBeGreaterThanOrEqual(2);
    expect(failed[failed.length - 1]!, window).toBeLessThan(width);
    // No delivered attempt, so no green at all: no dashes on the baseline for empty hours.
    expect(delivered, window).toEqual([]);
    await card.screenshot({ path: test.info().outputPath(`chart-failed-${hours}h.png`) });
  }
  await page.context().close();
});

test('right after a test event the 24-hour and 7-day figures agree, without waiting for the minute’s refresh', async ({ browser }) => {
  const page = await openConfiguration(browser, WEBHOOK_IDS.a1);
  const card = page.getByRole('region', { name: 'Saúde das entregas' });
  const delivered = card.getByRole('definition').first();
  await expect(delivered).toHaveText(/^\d+$/);
  // The 7-day window seen first, so both are in the page's cache before the event.
  await card.getByRole('button', { name: 'Últimos 7 dias' }).click();
  await expect(card.getByRole('img', { name: /^Últimos 7 dias: / })).toBeVisible();
  await card.getByRole('button', { name: 'Últimas 24 horas' }).click();
  await expect(card.getByRole('img', { name: /^Últimas 24 horas: / })).toBeVisible();
  const before = Number(await delivered.textContent());

  await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
  await expect(page.getByTestId('test-outcome')).toHaveText(/^Evento de teste entregue/);
  // Well within the health card's own minute.
  await expect(delivered).toHaveText(String(before + 1), { timeout: 10_000 });
  await card.getByText('Ver como tabela').click();
  const table = card.getByRole('table', { name: 'Saúde das entregas' });
  const sum = async () =>
    (await table.getByRole('row').all())
      .slice(1)
      .reduce(async (total, row) => (await total) + Number(await row.getByRole('cell').first().textContent()), Promise.resolve(0));
  expect(await sum()).toBe(before + 1);
  await card.getByRole('button', { name: 'Últimos 7 dias' }).click();
  await expect(delivered).toHaveText(String(before + 1), { timeout: 10_000 });
  expect(await sum()).toBe(before + 1);
  await page.context().close();
});

test('a configuration without attempts says so rather than "Entregando", on its page and in the triage list', async ({ browser }) => {
  // a4 has never had an event.
  const page = await openConfiguration(browser, WEBHOOK_IDS.a4);
  const card = page.getByRole('region', { name: 'Saúde das entregas' });
  await expect(card.getByText('Sem tentativas no período', { exact: true })).toBeVisible();
  await expect(card.getByText('Entregando')).toHaveCount(0);
  await page.goto('/webhooks/saude');
  const row = page.locator(`[data-webhook-id="${WEBHOOK_IDS.a4}"]`);
  await expect(row).toContainText('Sem tentativas no período');
  await expect(row).not.toContainText('Entregando');
  await expectNoSeriousA11yViolations(page);
  await page.context().close();
});

test('the open-alert notice is in the page as the server sends it, before any script runs', async ({ browser }) => {
  const page = await openConfiguration(browser, WEBHOOK_IDS.a1);
  // a3's open circuit (an earlier test) is an alert: wait for the browser's notice to show it.
  await expect(page.getByTestId('delivery-alerts')).toContainText(`O receptor ${receiver.url('/fora')} parece fora do ar desde `);
  const session = await page.context().storageState();
  const noScript = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', javaScriptEnabled: false, storageState: session });
  const plain = await noScript.newPage();
  for (const path of ['/webhooks', '/webhooks/saude', `/webhooks/${WEBHOOK_IDS.a1}`]) {
    await plain.goto(path);
    await expect(plain.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(plain.getByTestId('delivery-alerts'), path).toContainText(`O receptor ${receiver.url('/fora')} parece fora do ar desde `);
    await expect(plain.getByTestId('delivery-alerts').getByRole('link', { name: 'Ver configuração' })).toHaveAttribute(
      'href',
      `/webhooks/${WEBHOOK_IDS.a3}`,
    );
  }
  await noScript.close();
  await page.context().close();
});

for (const width of [1280, 390]) {
  test(`at ${width} px the delivery log's event filter shows its placeholder whole, with the full hint below`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width, height: 900 } });
    const page = await context.newPage();
    await signIn(page, STAFF.webhooks, `/webhooks/${WEBHOOK_IDS.a1}`);
    const filter = page.getByLabel('Evento', { exact: true });
    await expect(filter).toHaveAccessibleDescription('Filtra pelo idEvento do produtor ou pelo id evt_… devolvido na publicação.');
    await expect(page.getByText('Filtra pelo idEvento do produtor ou pelo id evt_… devolvido na publicação.')).toBeVisible();
    const room = await filter.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context2d = document.createElement('canvas').getContext('2d')!;
      context2d.font = style.font;
      const inner = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { placeholder: input.placeholder, text: context2d.measureText(input.placeholder).width, inner };
    });
    expect(room.placeholder).toBe('idEvento ou evt_…');
    expect(room.text, JSON.stringify(room)).toBeLessThanOrEqual(room.inner);
    await filter.screenshot({ path: test.info().outputPath(`event-filter-${width}.png`) });
    await context.close();
  });
}
