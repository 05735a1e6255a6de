import type { APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { expect, test } from '../support/browser-test';
import { bearer, FLAGS_OFF, tokenFor } from '../support/api';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Payload control's field suggestions and filtered figure in the console (issue 46 §1-2): the
 * card offers the subscribed events' fields from the catalogue's schemas as the user types and
 * writes the picked one into the filter or the field rules; the health card counts the events a
 * filter kept from the receiver. A server of its own.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });

let server: RunningServer;
let api: APIRequestContext;
let tenantA: Record<string, string>;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  server = await startServer({
    dataDir: newDataDir('payload-fields-console'),
    env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  tenantA = bearer(await tokenFor(api, TENANT_A));
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
});

async function put(id: string, data: Record<string, unknown>) {
  const response = await api.put(apiPath(routes.getWebhookConfiguration, { id }), { headers: tenantA, data });
  expect(response.status(), await response.text()).toBe(200);
}

test('the card suggests a scheduling event’s fields as the user types and adds the picked one to the filter and the rules', async ({
  browser,
}, testInfo) => {
  // The bench, the lazy suggestions and an accessibility scan: over a minute on a loaded machine.
  test.setTimeout(120_000);
  await put(WEBHOOK_IDS.a6, {
    url: 'https://receptor-a6.exemplo.com.br/hooks',
    headers: [],
    ...FLAGS_OFF,
    eventoAgendamentoReservado: true,
  });
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, `/webhooks/${WEBHOOK_IDS.a6}`);

  const field = page.getByLabel('Campo (JSON Pointer)');
  await field.fill('/data/nr');
  // The browser's own list reads the datalist; its options are the catalogue schema's fields, described.
  const listId = await field.getAttribute('list');
  await expect(page.locator(`datalist[id="${listId}"] option[value="/data/nrSeqProcInterno"]`)).toHaveAttribute('label', 'The exam.');
  await expect(page.locator(`datalist[id="${listId}"] option[value="/data/tokenReserva"]`)).toHaveCount(1);
  // Not another type's: the evaluation sample's fields are for configurations subscribed to it.
  await expect(page.locator(`datalist[id="${listId}"] option[value="/data/beneficiario/cpf"]`)).toHaveCount(0);

  await field.fill('/data/nrSeqProcInterno');
  await page.getByLabel('Uso', { exact: true }).selectOption({ label: 'filtrar por ele' });
  await page.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(page.getByLabel('Filtro (JSON)')).toHaveValue(/"data\.nrSeqProcInterno": \{\s*"\$exist": true\s*\}/);

  await field.fill('/data/tokenReserva');
  await page.getByLabel('Uso', { exact: true }).selectOption({ label: 'mascarar' });
  await field.press('Enter');
  expect(JSON.parse(await page.getByLabel('Campos (JSON)').inputValue())).toEqual([{ ponteiro: '/data/tokenReserva', acao: 'mascarar' }]);

  // A field that is not a pointer is refused with a reason, and nothing is written.
  await field.fill('data.plano');
  await page.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'JSON Pointer começando com /' })).toBeVisible();

  await page.getByLabel('Filtro (JSON)').fill('{"data.nrSeqProcInterno": {"$in": [501]}}');
  await page.getByRole('button', { name: 'Testar' }).click();
  await expect(page.getByText('o evento passa')).toBeVisible();
  await page.getByRole('heading', { name: 'Controle do payload' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('payload-fields.png'), fullPage: true });
  await expectNoSeriousA11yViolations(page);
  await context.close();
});

test('the health card counts the events a filter kept from the receiver', async ({ browser }) => {
  await put(WEBHOOK_IDS.a7, {
    url: 'https://receptor-a7.exemplo.com.br/hooks',
    headers: [],
    ...FLAGS_OFF,
    eventoAvaliacaoSaudeAprovada: true,
    filtro: { 'data.plano': 'OURO' },
  });
  const producer = bearer(await tokenFor(api, PRODUCER));
  for (const plano of ['PRATA', 'BRONZE']) {
    const published = await api.post(apiPath(routes.publishEvent), {
      headers: producer,
      data: { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_A.usuarioId, dados: { plano } },
    });
    expect(published.status()).toBe(202);
  }
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, `/webhooks/${WEBHOOK_IDS.a7}`);
  const health = page.locator('#saude');
  const filtered = health.locator('dl > div').filter({ has: page.locator('dt', { hasText: /^Filtradas$/ }) });
  // The health card loads after hydration, with its own code: a loaded machine takes a while.
  await expect(filtered.locator('dd').first()).toHaveText('2', { timeout: 30_000 });
  await expect(filtered).toContainText('status Filtrada no log');
  await context.close();
});
