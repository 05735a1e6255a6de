import type { APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { expect, test } from '../support/browser-test';
import { bearer, tokenFor } from '../support/api';
import { signIn } from '../support/console';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Payload control in the console (issue 46): staff write a filter, field rules and a
 * transformation, try them on the bench (the engine's own sandbox, through the API) and save them;
 * a transformation that fails shows its reason. A server of its own.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });

let server: RunningServer;
let api: APIRequestContext;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  server = await startServer({
    dataDir: newDataDir('payload-control-console'),
    env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
});

test('staff try a filter, field rules and a transformation on the bench, then save them', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, `/webhooks/${WEBHOOK_IDS.a5}`);
  await page.getByLabel('Filtro (JSON)').fill('{"data.plano": {"$in": ["OURO"]}}');
  await page.getByLabel('Campos (JSON)').fill('[{"ponteiro": "/data/beneficiario/cpf", "acao": "mascarar", "visiveis": 2}]');
  await page
    .getByLabel('Transformação (JavaScript)')
    .fill(
      'function handler(webhook) {\n  return { payload: { cpf: webhook.payload.data.beneficiario.cpf, plano: webhook.payload.data.plano } };\n}',
    );
  await page.getByRole('button', { name: 'Testar' }).click();
  await expect(page.getByText('o evento passa')).toBeVisible();
  await expect(page.getByText('"cpf": "••••••••01"').first()).toBeVisible();
  await expect(page.getByText('"plano": "OURO"').last()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('payload-control.png'), fullPage: true });

  // A transformation that loops shows the sandbox's reason.
  await page.getByLabel('Transformação (JavaScript)').fill('function handler() { for (;;) {} }');
  await page.getByRole('button', { name: 'Testar' }).click();
  await expect(page.getByText(/^tempo-esgotado/)).toBeVisible();

  // Saved as written: the API answers it.
  await page.getByLabel('Transformação (JavaScript)').fill('function handler(w) { return { payload: w.payload }; }');
  await page.getByRole('button', { name: 'Aplicar controle do payload' }).click();
  await expect(page.getByText('Controle do payload aplicado.')).toBeVisible();
  const stored = await api.get(apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS.a5 }), {
    headers: bearer(await tokenFor(api, TENANT_A)),
  });
  expect(await stored.json()).toMatchObject({
    filtro: { 'data.plano': { $in: ['OURO'] } },
    campos: [{ ponteiro: '/data/beneficiario/cpf', acao: 'mascarar', visiveis: 2 }],
    transformacao: 'function handler(w) { return { payload: w.payload }; }',
  });
  await context.close();
});
