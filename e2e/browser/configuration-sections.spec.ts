import { request, type Browser, type Page } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { OPERATIONAL_EVENT_TYPE_LIST } from '@/lib/webhooks/events/types';
import { OPERATOR_CONFIG_ID } from '@/lib/webhooks/events/operational';
import { expect, test } from '../support/browser-test';
import { bearer, tokenFor } from '../support/api';
import { expectNoSeriousA11yViolations, horizontalFit, signIn } from '../support/console';
import { issueLink } from '../support/portal';
import { Receiver } from '../support/receiver';
import { newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The configuration page's sections and the portal's rough edges (issue 47) in Chromium, against a
 * server of its own (with an operator's receiver, so its configuration exists): the partner sees
 * its tenant by name, usuarioId and clientId apart, no UUID broken at 390 px, and signs out; the
 * configuration page's section navigation jumps and keeps the place in the URL, through a reload;
 * the operator's configuration lists its operational events and offers no delete.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });

let server: RunningServer;
let operator: Receiver;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  operator = await new Receiver().start();
  server = await startServer({
    dataDir: newDataDir('sections'),
    // A failed attempt waits ten minutes for its retry: long enough to be seen waiting.
    env: {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      OPERATIONAL_WEBHOOK_URL: operator.url('/ops'),
      WEBHOOK_RETRY_SCHEDULE: '600,600',
    },
  });
  // a1's receiver (receptor-a1.exemplo.com.br) resolves nowhere: its test event fails once and waits for its retry.
  const api = await request.newContext({ baseURL: server.url });
  const auth = bearer(await tokenFor(api, TENANT_A));
  expect((await api.post(apiPath(routes.sendTestEvent, { id: WEBHOOK_IDS.a1 }), { headers: auth })).status()).toBe(202);
  await expect
    .poll(async () => {
      const health = await api.get(apiPath(routes.deliveryHealth, { id: WEBHOOK_IDS.a1 }), { headers: auth });
      return ((await health.json()) as { situacao: { aguardandoNovaTentativa: number } }).situacao.aguardandoNovaTentativa;
    })
    .toBe(1);
  await api.dispose();
});

test.afterAll(async () => {
  await server?.stop();
  await operator?.stop();
});

/** A partner's page at `width`, with the portal opened through a fresh link of tenant A. */
async function portalPage(browser: Browser, width: number): Promise<Page> {
  const api = await request.newContext({ baseURL: server.url });
  const link = await issueLink(api, bearer(await tokenFor(api, TENANT_A)));
  await api.dispose();
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto(link.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Suas configurações de webhook' })).toBeVisible();
  return page;
}

/** How many lines an element's text takes: a UUID broken mid-string takes two. */
const linesOf = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) => elements.map((element) => element.getClientRects().length));

test('at 390 px the portal names its tenant, labels usuarioId and clientId apart, breaks no UUID, and signs out', async ({ browser }) => {
  const page = await portalPage(browser, 390);
  await expect(page.getByTestId('portal-tenant-name')).toHaveText('Cliente e2e-cliente-a');
  await expect(page.getByTestId('portal-tenant')).toHaveText(TENANT_A.usuarioId);
  const first = page.locator(`[data-webhook-id="${WEBHOOK_IDS.a1}"]`);
  await expect(first.getByRole('term')).toHaveText(['usuarioId', 'clientId']);
  await expect(first.getByRole('definition')).toHaveText([TENANT_A.usuarioId, TENANT_A.clientId]);
  // Every UUID on the page on one line: the header's, and each configuration's usuarioId.
  const uuidLines = await linesOf(page, '[data-testid="portal-tenant"], [data-webhook-id] dd:first-of-type');
  expect(uuidLines.length).toBeGreaterThanOrEqual(2);
  expect(
    uuidLines.every((lines) => lines === 1),
    String(uuidLines),
  ).toBe(true);
  const fit = await horizontalFit(page);
  expect(fit.cutOff).toEqual([]);
  expect(fit.scrollWidth).toBeLessThanOrEqual(fit.viewport);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/portal\/entrar\?saiu=1$/);
  await expect(page.getByRole('alert').filter({ hasText: 'Você saiu' })).toHaveText('Você saiu do portal. Para voltar, abra um novo link.');
  // The session is over on the server: the portal's pages send it back to the entry page.
  await page.goto('/portal');
  await expect(page).toHaveURL(/\/portal\/entrar\?encerrada=1$/);
  await page.context().close();
});

test('the portal’s configuration page: sections to jump between, the URL keeping the place through a reload', async ({ browser }) => {
  const page = await portalPage(browser, 390);
  await page.goto(`/portal/webhooks/${WEBHOOK_IDS.a1}`);
  const nav = page.getByRole('navigation', { name: 'Seções da configuração' });
  // The portal card is the console's: not a section here.
  await expect(nav.getByRole('link')).toHaveText(['Configuração', 'Saúde', 'Segredo', 'Entregas e teste', 'Recuperação']);
  await nav.getByRole('link', { name: 'Saúde' }).click();
  await expect(page).toHaveURL(/#saude$/);
  await expect(page.getByRole('region', { name: 'Saúde das entregas' })).toBeInViewport();
  await expect(nav.getByRole('link', { name: 'Saúde' })).toHaveAttribute('aria-current', 'location');
  await page.reload();
  await expect(page).toHaveURL(/#saude$/);
  const health = page.getByRole('region', { name: 'Saúde das entregas' });
  await expect(health).toBeInViewport();
  // The delivery waiting for its retry is in the queue, and said to wait.
  const queued = health.getByRole('term').filter({ hasText: 'Na fila agora' }).locator('..');
  await expect(queued.getByRole('definition')).toHaveText(['1', '1 aguarda nova tentativa']);
  // The legend shows the latest hour's figures without a pointer on the chart, and says how to see another.
  const legend = health.locator('.u-legend .u-value');
  await expect(legend.first()).toHaveText(/^\d{2}\/\d{2},? \d{2}:\d{2}$/);
  // This hour's one failed attempt: no delivered bar (0), one failed.
  await expect(legend.nth(1)).toHaveText('0');
  await expect(legend.nth(2)).toHaveText('1');
  await expect(health.getByText('A legenda mostra a hora mais recente com tentativas')).toBeVisible();

  // Recovery since a date: typed day first, in Brasília time, whatever the browser's own date format.
  const since = page.getByLabel('Desde', { exact: true });
  await expect(since).toHaveAttribute('placeholder', 'dd/mm/aaaa hh:mm');
  await since.fill('11/28/2026 10:30');
  await expect(since).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Recuperar', exact: true })).toBeDisabled();
  await since.fill('28/11/2026 10:30');
  await expect(since).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByRole('button', { name: 'Recuperar', exact: true })).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
  await page.context().close();
});

test('the console: a partner’s configuration has its portal section; the operator’s lists its operational events and no delete', async ({
  browser,
}) => {
  // This spec's server (with the operator's receiver), not the run's shared one.
  const page = await (await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width: 1280, height: 900 } })).newPage();
  await signIn(page, STAFF.webhooks, `/webhooks/${WEBHOOK_IDS.a1}`);
  await page.goto(`/webhooks/${WEBHOOK_IDS.a1}`);
  const nav = page.getByRole('navigation', { name: 'Seções da configuração' });
  await expect(nav.getByRole('link')).toHaveText([
    'Configuração',
    'Portal do parceiro',
    'Saúde',
    'Segredo',
    'Entregas e teste',
    'Recuperação',
  ]);
  await nav.getByRole('link', { name: 'Entregas e teste' }).click();
  await expect(page).toHaveURL(/#entregas$/);
  await expect(page.getByRole('region', { name: 'Registro de entregas' })).toBeInViewport();

  // Saved from the top of the page, where the Cancel and Save bar sticks to the bottom: the toast stays clear of it.
  await page.goto(`/webhooks/${WEBHOOK_IDS.a1}`);
  const save = page.getByRole('button', { name: 'Salvar' });
  await save.click();
  const toast = page.getByRole('status').filter({ hasText: 'Configuração salva.' });
  await expect(toast).toBeVisible();
  const toastBox = (await toast.boundingBox())!;
  const barBox = (await save.locator('..').boundingBox())!;
  expect(barBox.y + barBox.height, 'the bar sticks to the bottom').toBeGreaterThan(850);
  const overlaps = toastBox.y < barBox.y + barBox.height && barBox.y < toastBox.y + toastBox.height;
  expect(overlaps, `toast ${JSON.stringify(toastBox)}, bar ${JSON.stringify(barBox)}`).toBe(false);

  await page.goto(`/webhooks/${OPERATOR_CONFIG_ID}`);
  const events = page.getByRole('region', { name: 'Eventos operacionais' });
  await expect(events.getByRole('listitem')).toHaveCount(OPERATIONAL_EVENT_TYPE_LIST.length);
  await expect(events).toContainText('circuito.aberto');
  await expect(page.locator('#eventoPropostaCancelada')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Excluir configuração' })).toHaveCount(0);
  await expect(
    page.getByRole('navigation', { name: 'Seções da configuração' }).getByRole('link', { name: 'Portal do parceiro' }),
  ).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});
