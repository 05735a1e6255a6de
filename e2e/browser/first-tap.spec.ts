import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/browser-test';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { STAFF } from '../support/test-seed';

// Brazilian staff: the browser asks for pt-BR, as theirs do (the console's default language).
test.use({ locale: 'pt-BR' });

/**
 * Issue 32: a control tapped as soon as the page's first paint shows it, on a phone-class CPU
 * (6× slower, through the DevTools protocol), either works or says it is not ready yet (disabled,
 * described by the page's reason) and then works once it is: never a click lost in silence.
 */
const NOT_READY = 'A página ainda está carregando: este controle fica disponível em instantes.';
// Hydration on a 6× slower CPU, beside other specs on a shared machine, takes seconds.
const SLOW = { timeout: 30_000 };

async function throttleCpu(page: Page) {
  // Everything the page does runs 6× slower: two page loads, hydration and a check exceed the
  // default 60 s on a loaded 2-core CI machine without anything being wrong.
  test.setTimeout(180_000);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  return () => cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
}

/**
 * Waits for the control's first paint, reads in that same instant whether it is enabled or disabled
 * and described as not ready, then taps it (Playwright's click waits until it is enabled).
 * Returns what it saw, for the test to assert.
 */
async function tapAtFirstSight(control: Locator): Promise<'ready' | 'said not ready'> {
  await control.waitFor({ state: 'visible', ...SLOW });
  const seen = await control.evaluate((element) => {
    if (!element.matches(':disabled')) return { disabled: false, description: '' };
    const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    return { disabled: true, description: ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ') };
  });
  if (seen.disabled) expect(seen.description, 'a disabled control says why').toContain(NOT_READY);
  await control.click(SLOW);
  return seen.disabled ? 'said not ready' : 'ready';
}

/**
 * Holds the page's react-hook-form chunk (imported after hydration, so not named by the page's
 * HTML) until the returned function is called; every other script is served at once.
 */
async function holdFormCode(page: Page, pagePath: string): Promise<() => void> {
  let named = new Set<string>();
  await page.route(`**${pagePath}`, async (route) => {
    const response = await route.fetch();
    const html = await response.text();
    named = new Set([...html.matchAll(/static\/chunks\/([\w.-]+\.js)/g)].map((match) => match[1]!));
    await route.fulfill({ response, body: html });
  });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/_next/static/chunks/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    const file = new URL(route.request().url()).pathname.split('/').pop()!;
    if (!named.has(file) && body.includes('shouldUnregister')) await held;
    await route.fulfill({ response, body });
  });
  return () => release();
}

/** A configuration of a tenant of its own, with one stored header, deleted after the test. */
async function ownConfiguration(page: Page, host: string) {
  const origin = new URL(page.url()).origin;
  const created = await page.request.post('/api/v2/avaliacao-saude/configuracao-web-hook', {
    headers: { Origin: origin },
    data: {
      usuarioId: '32323232-3232-4232-8232-323232323232',
      sistemaOrigem: 32,
      url: `https://${host}.exemplo.com.br/eventos`,
      headers: [{ chave: 'X-Origem', valor: 'primeira-pintura' }],
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  return { id, remove: () => page.request.delete(`/api/v2/avaliacao-saude/configuracao-web-hook/${id}`, { headers: { Origin: origin } }) };
}

test('the editor’s first paint has the stored header rows, and every button there says it is not ready until it is', async ({
  browser,
  page,
}) => {
  await signIn(page, STAFF.webhooks, '/webhooks');
  const config = await ownConfiguration(page, 'primeira-pintura');
  try {
    // The server's HTML alone, as it paints before any script has run (scripts off: never hydrated).
    const context = await browser.newContext({
      javaScriptEnabled: false,
      locale: 'pt-BR',
      storageState: await page.context().storageState(),
    });
    const html = await context.newPage();
    await html.goto(`/webhooks/${config.id}`);
    await expect(html.getByLabel('url', { exact: true })).toHaveValue('https://primeira-pintura.exemplo.com.br/eventos');
    await expect(html.getByLabel('chave do cabeçalho 1', { exact: true })).toHaveValue('X-Origem');
    await expect(html.getByLabel('valor do cabeçalho 1', { exact: true })).toHaveValue('primeira-pintura');
    await expect(html.getByRole('switch', { name: 'Enviar eventos a este receptor' })).toBeChecked();
    await expect(html.getByRole('heading', { name: 'Eventos notificados' })).toBeVisible();
    for (const name of [/Adicionar cabeçalho/, /^Salvar$/]) {
      const button = html.getByRole('button', { name });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(NOT_READY);
    }
    await context.close();
  } finally {
    await config.remove();
  }
});

test('under a 6× slower CPU, “Adicionar cabeçalho” and “Salvar” tapped at first sight take effect', async ({ page }) => {
  await signIn(page, STAFF.webhooks, '/webhooks');
  const config = await ownConfiguration(page, 'toque-lento');
  const unthrottle = await throttleCpu(page);
  try {
    await page.goto(`/webhooks/${config.id}`, { waitUntil: 'commit' });
    const seen = await tapAtFirstSight(page.getByRole('button', { name: /Adicionar cabeçalho/ }));
    await expect(page.getByLabel('chave do cabeçalho 2', { exact: true }), `added (${seen})`).toBeVisible(SLOW);

    await page.goto(`/webhooks/${config.id}`, { waitUntil: 'commit' });
    const saved = await tapAtFirstSight(page.getByRole('button', { name: 'Salvar', exact: true }));
    await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' }), `saved (${saved})`).toBeVisible(SLOW);
    await unthrottle();
    await expectNoSeriousA11yViolations(page);
  } finally {
    await config.remove();
  }
});

test('under a 6× slower CPU, “Reservar horário” and the slots’ “Lista” tapped at first sight take effect', async ({ page }) => {
  await signIn(page, STAFF.scheduling, '/scheduling');
  const unthrottle = await throttleCpu(page);
  await page.goto('/scheduling', { waitUntil: 'commit' });
  const listed = await tapAtFirstSight(page.getByRole('group', { name: 'Exibir os horários como' }).getByRole('button', { name: 'Lista' }));
  await expect(page.getByRole('button', { name: 'Buscar horários' }), `list shown (${listed})`).toBeVisible(SLOW);

  await page.goto('/scheduling', { waitUntil: 'commit' });
  // An empty form: the tap is answered by the form's own checks, nothing is sent.
  const reserved = await tapAtFirstSight(page.getByRole('button', { name: 'Reservar horário' }));
  await expect(page.getByTestId('outcome'), `checked (${reserved})`).toContainText(
    'A requisição não foi enviada: corrija os campos destacados no formulário.',
    SLOW,
  );
  await unthrottle();
  await expectNoSeriousA11yViolations(page);
});

test('under a 6× slower CPU, “Criar cliente”, whose form code arrives after hydration, says it is not ready and then checks the form', async ({
  page,
}) => {
  await signIn(page, STAFF.admin, '/admin/clientes');
  const unthrottle = await throttleCpu(page);
  await page.goto('/admin/clientes', { waitUntil: 'commit' });
  // An empty form: the tap is answered by the form's own checks (react-hook-form, loaded after
  // hydration), nothing is sent.
  const checked = await tapAtFirstSight(page.getByRole('button', { name: 'Criar cliente' }));
  await expect(page.getByLabel('Identificador (clientId)'), `checked (${checked})`).toHaveAttribute('aria-invalid', 'true', SLOW);
  await unthrottle();
  await expectNoSeriousA11yViolations(page);
});

test('while a form’s own code is still loading after hydration, its controls stay disabled and say why, then work', async ({ page }) => {
  await signIn(page, STAFF.admin, '/admin/clientes');
  const release = await holdFormCode(page, '/admin/clientes');
  await page.goto('/admin/clientes');
  // Hydrated: the header's own button works.
  await expect(page.getByRole('button', { name: 'Sair' })).toBeEnabled();
  const create = page.getByRole('button', { name: 'Criar cliente' });
  await expect(create).toBeDisabled();
  await expect(create).toHaveAccessibleDescription(NOT_READY);
  await expect(page.getByLabel('Identificador (clientId)')).toBeDisabled();
  release();
  await expect(create).toBeEnabled();
  await expect(create).not.toHaveAccessibleDescription(NOT_READY);
  await page.getByLabel('Identificador (clientId)').fill('x');
  await create.click();
  await expect(page.getByLabel('Identificador (clientId)')).toHaveAttribute('aria-invalid', 'true');
});

test('on the reservation page only the form waits for its code: the slot list around it stays as it is when the code arrives', async ({
  page,
}) => {
  await signIn(page, STAFF.scheduling, '/scheduling');
  const release = await holdFormCode(page, '/scheduling');
  // Not until `load`: the held chunk, requested before it, would hold the load event too.
  await page.goto('/scheduling', { waitUntil: 'domcontentloaded' });
  await page.getByRole('group', { name: 'Exibir os horários como' }).getByRole('button', { name: 'Lista' }).click();
  const search = page.getByRole('button', { name: 'Buscar horários' });
  await expect(search).toBeVisible();
  const reserve = page.getByRole('button', { name: 'Reservar horário' });
  await expect(reserve).toBeDisabled();
  await expect(reserve).toHaveAccessibleDescription(NOT_READY);
  const listElement = await search.elementHandle();
  release();
  await expect(reserve).toBeEnabled();
  // The same element: the list was not mounted again with the form.
  expect(await listElement.evaluate((element) => element.isConnected)).toBe(true);
  await reserve.click();
  await expect(page.getByTestId('outcome')).toContainText('A requisição não foi enviada: corrija os campos destacados no formulário.');
});
