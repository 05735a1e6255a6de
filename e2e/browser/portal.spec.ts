import http from 'node:http';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { expect, test } from '../support/browser-test';
import { bearer } from '../support/api';
import { expectNoSeriousA11yViolations, horizontalFit, signIn } from '../support/console';
import { Receiver } from '../support/receiver';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { STAFF, TENANT_A, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The partner portal (issue 30) in Chromium, against a server of its own: links issued from the
 * console open the portal once and expire (PORTAL_LINK_MINUTES 0.5: 30 s), the partner edits and
 * tests its configuration against a real receiver on 127.0.0.1, a read-only session has no write
 * controls, a revoked one stops, and a page of an allowed origin (http://localhost:…) frames the
 * portal while one of another origin (http://127.0.0.1:…) cannot. At 1280 and 390 px.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });

const LINK_SECONDS = 30;
let server: RunningServer;
let receiver: Receiver;
let framers: { allowed: http.Server; other: http.Server; allowedOrigin: string; otherOrigin: string };

/** A page that frames whatever its `?src=` names: the platform's own page, at an origin of its own. */
function framer(): http.Server {
  return http.createServer((request, response) => {
    const src = new URL(request.url ?? '/', 'http://x').searchParams.get('src') ?? '';
    const escaped = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="pt-BR"><title>Plataforma</title><h1>Plataforma</h1><iframe title="Portal do parceiro" src="${escaped}" width="1200" height="800"></iframe></html>`,
    );
  });
}

async function listen(server: http.Server, host: string): Promise<number> {
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return port;
}

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(120_000);
  receiver = await new Receiver().start();
  const allowed = framer();
  const other = framer();
  const allowedPort = await listen(allowed, '127.0.0.1');
  const otherPort = await listen(other, '127.0.0.1');
  framers = { allowed, other, allowedOrigin: `http://localhost:${allowedPort}`, otherOrigin: `http://127.0.0.1:${otherPort}` };
  server = await startServer({
    dataDir: newDataDir('portal-browser'),
    env: {
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      PORTAL_LINK_MINUTES: String(LINK_SECONDS / 60),
      PORTAL_FRAME_ANCESTORS: framers.allowedOrigin,
    },
  });
  const api = await playwright.request.newContext({ baseURL: server.url });
  const token = await api.post(apiPath(routes.issueToken), {
    form: { grant_type: 'client_credentials', client_id: TENANT_A.clientId, client_secret: TENANT_A.clientSecret },
  });
  const auth = bearer(((await token.json()) as { access_token: string }).access_token);
  const saved = await api.put(apiPath(routes.updateWebhookConfiguration, { id: WEBHOOK_IDS.a1 }), {
    headers: auth,
    data: { url: receiver.url('/portal') },
  });
  expect(saved.status()).toBe(200);
  await api.dispose();
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
  framers?.allowed.close();
  framers?.other.close();
});

async function staffPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR' });
  const page = await context.newPage();
  await signIn(page, STAFF.webhooks, '/webhooks');
  await page.goto(`/webhooks/${WEBHOOK_IDS.a1}`);
  await expect(page.getByRole('region', { name: 'Portal do parceiro' })).toBeVisible();
  return page;
}

/** Staff issue a link from the configuration's page: the URL shown to copy. */
async function issueInConsole(page: Page, readOnly = false): Promise<string> {
  const card = page.getByRole('region', { name: 'Portal do parceiro' });
  if (readOnly) await card.getByLabel('Somente leitura').check();
  await card.getByRole('button', { name: 'Emitir link do portal' }).click();
  await expect(card.getByText(/^Link emitido: ele abre o portal uma única vez, até /)).toBeVisible();
  const url = await card.getByLabel('Link do portal').inputValue();
  expect(url).toMatch(new RegExp(`^${server.url}/portal/entrar#[A-Za-z0-9_-]{43}$`));
  return url;
}

async function partner(browser: Browser, width = 1280, locale = 'pt-BR'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: server.url, locale, viewport: { width, height: 900 } });
  return { context, page: await context.newPage() };
}

async function expectFits(page: Page) {
  const fit = await horizontalFit(page);
  expect(fit.cutOff).toEqual([]);
  expect(fit.scrollWidth).toBeLessThanOrEqual(fit.viewport);
}

test('staff issue a link; it opens the portal once, is refused the second time and once expired', async ({ browser }) => {
  // It waits PORTAL_LINK_MINUTES (30 s) for a link to expire, beside three axe scans.
  test.setTimeout(180_000);
  const staff = await staffPage(browser);
  await expectNoSeriousA11yViolations(staff);
  const url = await issueInConsole(staff);
  await expect(staff.getByTestId('portal-links').getByRole('listitem')).toHaveCount(1);
  // Opened at once: the link lives 30 s here, less than the console's checks below can take on a
  // loaded machine.
  const { context, page } = await partner(browser);
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1, name: 'Suas configurações de webhook' })).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/portal`);
  await expectNoSeriousA11yViolations(staff);
  await staff.getByRole('region', { name: 'Portal do parceiro' }).screenshot({ path: test.info().outputPath('console-portal-card.png') });
  await expect(page.getByTestId('portal-tenant')).toHaveText(TENANT_A.usuarioId);
  // None of the console's navigation: the portal's own two pages.
  await expect(page.getByRole('navigation', { name: 'Navegação principal' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Navegação do portal' }).getByRole('link')).toHaveText([
    'Configurações',
    'Catálogo de eventos',
  ]);
  await expect(
    page
      .getByTestId('webhook-list')
      .getByRole('listitem')
      .filter({ hasText: receiver.url('/portal') }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath('portal-1280.png'), fullPage: true });

  // The same link again, in another browser: refused.
  const again = await partner(browser);
  await again.page.goto(url);
  await expect(again.page.getByRole('alert').filter({ hasText: /já foi usado, expirou ou foi revogado/ })).toBeVisible();
  await expectNoSeriousA11yViolations(again.page);
  await again.context.close();

  // The open session is listed for staff; the link no longer is.
  await staff.reload();
  await expect(staff.getByTestId('portal-sessions').getByRole('listitem')).toHaveCount(1);
  await expect(staff.getByTestId('portal-links').getByRole('listitem')).toHaveCount(0);

  // A link left unopened past PORTAL_LINK_MINUTES opens nothing.
  const late = await issueInConsole(staff);
  await new Promise((resolve) => setTimeout(resolve, LINK_SECONDS * 1000 + 1000));
  // (A partner whose browser prefers English reads the portal in English.)
  const expired = await partner(browser, 390, 'en-US');
  await expired.page.goto(late);
  await expect(expired.page.getByRole('heading', { level: 1, name: 'Partner portal' })).toBeVisible();
  await expect(
    expired.page.getByRole('alert').filter({ hasText: 'This link was already used, has expired or was revoked.' }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(expired.page);
  await expectFits(expired.page);
  await expired.context.close();
  await context.close();
  await staff.context().close();
});

for (const width of [1280, 390]) {
  test(`the partner edits a header, sends a test event and sees it in the log and the chart (${width} px)`, async ({ browser }) => {
    const staff = await staffPage(browser);
    const url = await issueInConsole(staff);
    await staff.context().close();
    const { context, page } = await partner(browser, width);
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: 'Suas configurações de webhook' })).toBeVisible();
    if (width === 390) {
      await expectFits(page);
      await page.screenshot({ path: test.info().outputPath('portal-390.png'), fullPage: true });
    }
    await page.getByRole('link', { name: `Editar configuração ${receiver.url('/portal')}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Editar configuração' })).toBeVisible();
    const value = `valor-${width}`;
    await page.getByLabel('valor do cabeçalho 1', { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();

    await page.getByRole('button', { name: 'Enviar evento de teste' }).click();
    await expect(page.getByTestId('test-outcome')).toHaveText(/^Evento de teste entregue \(HTTP \d+ · \d+ ms\)\.$/);
    const arrived = await receiver.waitFor('/portal', 1);
    expect(arrived.some((request) => request.headers['x-api-key'] === value)).toBe(true);
    const row = page.getByTestId('delivery-list').getByRole('listitem').first();
    await expect(row).toContainText('webhook.teste');
    await expect(row).toContainText('Entregue');
    await row.getByRole('button', { name: 'Detalhes' }).click();
    await expect(row).toContainText('1 tentativa');
    // The chart refreshes each minute; the partner reloads the page to see it now.
    await page.reload();
    const health = page.getByRole('region', { name: 'Saúde das entregas' });
    await expect(
      health.getByRole('img', { name: /^Últimas 24 horas: [1-9]\d* tentativas? entregues? e 0 falhas; taxa de sucesso 100%\.$/ }),
    ).toBeVisible();
    // The secret is the partner's to reveal and rotate.
    await page.getByRole('button', { name: 'Mostrar segredo' }).click();
    await expect(page.getByTestId('signing-secret')).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expectNoSeriousA11yViolations(page);
    if (width === 390) await expectFits(page);
    await page.screenshot({ path: test.info().outputPath(`portal-config-${width}.png`), fullPage: true });

    await page.getByRole('link', { name: 'Catálogo de eventos' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Catálogo de eventos' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'avaliacao-saude.aprovada' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    if (width === 390) await expectFits(page);
    await context.close();
  });
}

test('a read-only session shows no write controls, and the API refuses its writes', async ({ browser }) => {
  const staff = await staffPage(browser);
  const url = await issueInConsole(staff, true);
  await staff.context().close();
  const { context, page } = await partner(browser, 390);
  await page.goto(url);
  await expect(page.getByText('Somente leitura')).toBeVisible();
  await page.goto(`/portal/webhooks/${WEBHOOK_IDS.a1}`);
  await expect(page.getByText('Esta sessão é somente leitura: você vê tudo, mas não altera nada.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Entregas de eventos' })).toBeVisible();
  await expect(page.getByTestId('delivery-list').getByRole('listitem').first()).toBeVisible();
  for (const name of [
    'Salvar',
    'Excluir',
    'Adicionar cabeçalho',
    'Enviar evento de teste',
    'Reenviar',
    'Mostrar segredo',
    'Gerar novo segredo',
    'Recuperar',
  ]) {
    await expect(page.getByRole('button', { name, exact: true }), name).toHaveCount(0);
  }
  await expect(page.getByLabel('valor do cabeçalho 1', { exact: true })).toBeDisabled();
  // Header values are often the receiver's own credentials: a read-only session sees them masked (issue 43).
  await expect(page.getByLabel('valor do cabeçalho 1', { exact: true })).toHaveValue('••••••');
  await expect(page.getByLabel('Enviar eventos a este receptor')).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
  await expectFits(page);
  await page.screenshot({ path: test.info().outputPath('portal-read-only-390.png'), fullPage: true });
  // The API, asked by this page itself (its cookie, its origin): every write refused.
  const statuses = await page.evaluate(async (id) => {
    const base = `/portal/api/v2/avaliacao-saude/configuracao-web-hook/${id}`;
    const send = (path: string, method: string, body?: unknown) =>
      fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((response) => response.status);
    return [
      await send(base, 'PUT', { url: 'https://outro.exemplo.com.br/h' }),
      await send(`${base}/teste`, 'POST'),
      await send(`${base}/segredo/rotacao`, 'POST'),
      await send(`${base}/segredo`, 'GET'),
      await send(base, 'DELETE'),
      await send(base, 'GET'),
    ];
  }, WEBHOOK_IDS.a1);
  expect(statuses).toEqual([403, 403, 403, 403, 403, 200]);
  await context.close();
});

test('a revoked session stops at its next request', async ({ browser }) => {
  const staff = await staffPage(browser);
  const url = await issueInConsole(staff);
  const { context, page } = await partner(browser);
  await page.goto(url);
  await expect(page.getByRole('heading', { level: 1, name: 'Suas configurações de webhook' })).toBeVisible();
  await staff.reload();
  const sessions = staff.getByTestId('portal-sessions');
  await expect(sessions.getByRole('listitem')).not.toHaveCount(0);
  const before = await sessions.getByRole('listitem').count();
  await sessions
    .getByRole('button', { name: /^Encerrar a sessão aberta / })
    .first()
    .click();
  await expect(sessions.getByRole('listitem')).toHaveCount(before - 1);
  // Its next request, a page or an API call, is refused: the portal says the session is over.
  await page.getByRole('link', { name: `Editar configuração ${receiver.url('/portal')}` }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Sua sessão no portal terminou. Peça um novo link para continuar.' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/portal\/entrar\?encerrada=1$/);
  // Every session staff ended is gone for good: back to the portal, still out.
  await page.goto('/portal');
  await expect(page).toHaveURL(/\/portal\/entrar\?encerrada=1$/);
  await context.close();
  await staff.context().close();
});

test('a page of an allowed origin frames the portal; a page of another origin cannot', async ({ browser }) => {
  const staff = await staffPage(browser);
  const blockedUrl = await issueInConsole(staff);
  await staff.context().close();

  const { context, page } = await partner(browser);
  // Another origin: the browser refuses to show the portal there (frame-ancestors), so its script never runs and the link stays unopened.
  await page.goto(`${framers.otherOrigin}/?src=${encodeURIComponent(blockedUrl)}`);
  await expect(page.getByRole('heading', { name: 'Plataforma' })).toBeVisible();
  const blocked = page.frameLocator('iframe');
  await page.waitForTimeout(1500);
  await expect(blocked.getByRole('heading', { name: 'Portal do parceiro' })).toHaveCount(0);
  await expect(blocked.getByRole('heading', { name: 'Suas configurações de webhook' })).toHaveCount(0);

  // The allowed origin frames it, with the very link the other origin could not use, and its cookie works in the frame.
  await page.goto(`${framers.allowedOrigin}/?src=${encodeURIComponent(blockedUrl)}`);
  const framed = page.frameLocator('iframe');
  await expect(framed.getByRole('heading', { level: 1, name: 'Suas configurações de webhook' })).toBeVisible();
  await framed.getByRole('link', { name: `Editar configuração ${receiver.url('/portal')}` }).click();
  await expect(framed.getByRole('heading', { level: 1, name: 'Editar configuração' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('portal-framed.png') });
  // Nothing in the frame reaches the console: its pages refuse to be framed, and the portal cookie is no staff session.
  const consoleAnswer = await page.evaluate(async (origin) => {
    try {
      const response = await fetch(`${origin}/api/v2/avaliacao-saude/configuracao-web-hook`, { credentials: 'include' });
      return response.status;
    } catch {
      return 'blocked';
    }
  }, server.url);
  expect(consoleAnswer).not.toBe(200);
  await context.close();
});
