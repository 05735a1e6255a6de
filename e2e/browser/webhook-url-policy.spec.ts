import type { Browser, Page } from '@playwright/test';
import { expect, test } from '../support/browser-test';
import { expectNoSeriousA11yViolations, horizontalFit, signIn } from '../support/console';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, tokenFor } from '../support/api';
import { PRODUCER, STAFF, TENANT_A } from '../support/test-seed';

/**
 * Issue 21 §1 and the delivery log's wording, on a server of its own: with the README's local
 * receiver recipe (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE_TARGETS) the console accepts what the
 * API accepts; restarted with the production policy on the same data, a URL stored earlier still
 * never blocks saving the configuration's other fields.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });

const RELAXED = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_SCHEDULE: '600' };
const PRIVATE_TARGET = 'A URL aponta para um endereço local, privado ou de metadados de nuvem, que não é permitido.';

let server: RunningServer;
let receiver: Receiver;
let dataDir: string;
/** The configuration the first test creates, which the later ones open. */
let configPath: string;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  receiver = await new Receiver().start();
  receiver.script('/eventos', { status: 500, body: 'falha no receptor' });
  dataDir = newDataDir('url-policy-console');
  server = await startServer({ dataDir, env: RELAXED });
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
});

async function staffPage(browser: Browser, width = 1280): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width, height: 900 } });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, '/webhooks');
  return page;
}

/** The whole page, or on a phone what is on screen (a full page would be too narrow to read). */
async function shot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });
}

test('with the local-receiver settings the console creates a configuration for http://127.0.0.1, as the API would', async ({ browser }) => {
  const page = await staffPage(browser);
  await page.goto('/webhooks/new');
  const url = page.getByLabel('url', { exact: true });
  await expect(url).toHaveAccessibleDescription(
    'Endereço do receptor que recebe as notificações (https, ou http: este servidor aceita http sem criptografia). Endereços locais e de rede privada também são aceitos neste servidor.',
  );
  // Another scheme is refused with the schemes this server takes, not "https://" alone.
  await url.fill('ftp://127.0.0.1/eventos');
  await expect(url).toHaveAttribute('aria-invalid', 'true');
  await expect(url).toHaveAccessibleDescription(/A URL deve começar com https:\/\/ ou http:\/\/\./);
  await page.getByLabel('usuarioId', { exact: true }).fill(TENANT_A.usuarioId);
  await page.getByLabel('sistemaOrigem', { exact: true }).fill(String(TENANT_A.sistemaOrigem));
  await url.fill(receiver.url('/eventos'));
  await expect(page.getByText(PRIVATE_TARGET)).toHaveCount(0);
  await page.getByRole('button', { name: /Adicionar cabeçalho/ }).click();
  await page.getByLabel('chave do cabeçalho 1', { exact: true }).fill('X-Origem');
  await page.getByLabel('valor do cabeçalho 1', { exact: true }).fill('console');
  await page.getByRole('button', { name: /Adicionar cabeçalho/ }).click();
  await page.getByLabel('chave do cabeçalho 2', { exact: true }).fill('X-Api-Key');
  await page.getByLabel('valor do cabeçalho 2', { exact: true }).fill('segredo-do-receptor');
  await page.getByRole('switch', { name: /^Proposta cancelada/ }).check();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'create-relaxed');
  await page.getByRole('button', { name: 'Criar', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Editar configuração');
  configPath = new URL(page.url()).pathname;
  await expect(page.getByLabel('url', { exact: true })).toHaveValue(receiver.url('/eventos'));
  await page.context().close();
});

test('a test event answered 500 reads as failed and retrying; the log shows X-Origem in clear and masks the key', async ({
  browser,
  playwright,
}) => {
  const page = await staffPage(browser);
  await page.goto(configPath);
  await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
  await expect(page.getByTestId('test-outcome')).toHaveText(
    /^O evento de teste falhou \(HTTP 500 · \d+ ms\); uma nova tentativa será feita automaticamente\.$/,
  );
  const row = page.getByTestId('delivery-list').getByRole('listitem').first();
  await expect(row).toContainText('Falhou, tentará de novo');
  await expect(row).toContainText(/1 tentativa · HTTP 500 · \d+ ms/);
  await expect(row).toContainText('Próxima tentativa:');
  await row.getByRole('button', { name: 'Detalhes' }).click();
  await expect(row).toContainText('X-Origemconsole');
  await expect(row).toContainText('X-Api-Key••••••');
  await expect(row).not.toContainText('segredo-do-receptor');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'test-event-500');

  // Switched off, the stored http://127.0.0.1 URL in the form: the change saves.
  await page.getByLabel('Enviar eventos a este receptor').uncheck();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();

  // An event published now is skipped: its row says there was no attempt, once.
  const api = await playwright.request.newContext({ baseURL: server.url });
  const published = await api.post(apiPath(routes.publishEvent), {
    headers: bearer(await tokenFor(api, PRODUCER)),
    data: { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_A.usuarioId, dados: { proposta: 21 } },
  });
  expect(published.status()).toBe(202);
  await api.dispose();
  await page.reload();
  const skipped = page.getByTestId('delivery-list').getByRole('listitem').filter({ hasText: 'Ignorada' });
  await expect(skipped).toHaveCount(1);
  await expect(skipped).toContainText('sem tentativas');
  await expect(skipped).not.toContainText('0 tentativa');
  await shot(page, 'skipped');
  await page.context().close();
});

test('restarted with the production policy, the stored local URL still lets other fields be saved; a new one is checked', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  await server.stop();
  server = await startServer({ dataDir, env: { WEBHOOK_RETRY_SCHEDULE: '600' } });
  const page = await staffPage(browser, 390);
  await page.goto(configPath);
  const url = page.getByLabel('url', { exact: true });
  await expect(url).toHaveAccessibleDescription('Endereço do receptor que recebe as notificações (https).');
  await expect(url).toHaveValue(receiver.url('/eventos'));

  await page.getByLabel('Enviar eventos a este receptor').check();
  await page.getByLabel('valor do cabeçalho 1', { exact: true }).fill('console-2');
  await page.getByRole('button', { name: 'Salvar' }).click();
  const saved = page.getByRole('status').filter({ hasText: 'Configuração salva.' });
  await expect(saved).toBeVisible();
  await expect(page.getByText(PRIVATE_TARGET)).toHaveCount(0);
  await saved.getByRole('button', { name: 'Fechar' }).click();

  // A URL typed now is checked under this server's policy, before anything is sent.
  await page.getByLabel('url', { exact: true }).fill(receiver.url('/outro'));
  await expect(page.getByText(PRIVATE_TARGET)).toBeVisible();
  await expect(page.getByLabel('url', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  // The form's footer keeps its message and buttons on screen.
  await expect(page.getByText('Corrija os campos destacados.')).toBeInViewport();
  expect(await horizontalFit(page)).toEqual({ scrollWidth: 390, viewport: 390, cutOff: [] });
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('url', { exact: true }).scrollIntoViewIfNeeded();
  await shot(page, 'strict-390', false);

  // Back to the stored URL: nothing to judge again, the form saves.
  await page.getByLabel('url', { exact: true }).fill(receiver.url('/eventos'));
  await expect(page.getByText(PRIVATE_TARGET)).toHaveCount(0);
  await page.getByLabel('Enviar eventos a este receptor').uncheck();
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();
  await page.context().close();
});
