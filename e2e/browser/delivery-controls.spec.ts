import type { APIRequestContext } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { expect, test } from '../support/browser-test';
import { bearer, tokenFor } from '../support/api';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { PRODUCER, STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The delivery controls in the console (issue 31): staff read and edit a configuration's rate limit
 * and ordered delivery in its editor, a limit that is not a whole number is refused by name, and
 * while the limit holds deliveries back the health card and the delivery log say so. A server of
 * its own, whose receivers may be on loopback, and a real receiver on 127.0.0.1.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });

let server: RunningServer;
let receiver: Receiver;
let api: APIRequestContext;

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  server = await startServer({
    dataDir: newDataDir('delivery-controls-console'),
    env: { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', MAX_EVENTS_PER_SECOND: '100000' },
  });
  api = await playwright.request.newContext({ baseURL: server.url });
  const saved = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a4 }), {
    headers: bearer(await tokenFor(api, TENANT_A)),
    data: { url: receiver.url('/controlado'), eventoAvaliacaoSaudeArquivada: true },
  });
  expect(saved.status()).toBe(200);
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.stop();
  await receiver?.stop();
});

async function storedControls() {
  const response = await api.get(apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS.a4 }), {
    headers: bearer(await tokenFor(api, TENANT_A)),
  });
  return (await response.json()) as { limiteEntregasPorSegundo: number | null; entregaOrdenada: boolean };
}

for (const width of [1280, 390]) {
  test(`at ${width} px staff set the rate limit and ordered delivery, and a limit that is not a whole number is refused by name`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width, height: 900 } });
    const page = await context.newPage();
    await signIn(page, STAFF.webhooks, `/webhooks/${WEBHOOK_IDS.a4}`);
    const limit = page.getByLabel('limiteEntregasPorSegundo');
    const ordered = page.getByLabel('entregaOrdenada');
    await expect(limit).toHaveValue('');
    await expect(ordered).not.toBeChecked();

    await limit.fill('2,5');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(limit).toHaveAttribute('aria-invalid', 'true');
    expect(await storedControls()).toMatchObject({ limiteEntregasPorSegundo: null, entregaOrdenada: false });

    await limit.fill('2');
    await ordered.check();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();
    expect(await storedControls()).toMatchObject({ limiteEntregasPorSegundo: 2, entregaOrdenada: true });
    await expectNoSeriousA11yViolations(page);

    await page.reload();
    await expect(limit).toHaveValue('2');
    await expect(ordered).toBeChecked();
    // Emptied, the limit is removed; the ordering switched back off.
    await limit.fill('');
    await ordered.uncheck();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();
    expect(await storedControls()).toMatchObject({ limiteEntregasPorSegundo: null, entregaOrdenada: false });
    await context.close();
  });
}

test('while the rate limit holds deliveries back, the health card and the delivery log say so', async ({ browser }) => {
  const tenant = bearer(await tokenFor(api, TENANT_A));
  const limited = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a4 }), {
    headers: tenant,
    data: { limiteEntregasPorSegundo: 1 },
  });
  expect(limited.status()).toBe(200);
  // 40 events at one a second: the backlog lasts about 40 s, well past the checks below.
  const producer = bearer(await tokenFor(api, PRODUCER));
  for (let i = 0; i < 40; i++) {
    const published = await api.post(apiPath(routes.publishEvent), {
      headers: producer,
      data: { tipo: 'eventoAvaliacaoSaudeArquivada', usuarioId: TENANT_A.usuarioId, idEvento: `retida-${i}`, dados: { i } },
    });
    expect(published.status()).toBe(202);
  }
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR' });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, `/webhooks/${WEBHOOK_IDS.a4}`);
  await expect(page.getByText('Entregas retidas pelo limite de taxa (limiteEntregasPorSegundo).')).toBeVisible();
  await expect(
    page
      .getByTestId('delivery-list')
      .getByText(/^Aguardando o limite de taxa \(limiteEntregasPorSegundo\); próxima tentativa: /)
      .first(),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await context.close();
});
