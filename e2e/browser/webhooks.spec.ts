import type { Page } from '@playwright/test';
import { expect, test } from '../support/browser-test';
import { bearer, tokenFor, webhookPath } from '../support/api';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { STAFF, WEBHOOK_IDS } from '../support/test-seed';

// Brazilian staff: the browser asks for pt-BR, as theirs do (the console's default language).
test.use({ locale: 'pt-BR' });

/** State-changing specs here use webhook ids a3, a4, a5 and a10 only (the API specs use the others). */

/** The message of the page's next dialog, answered "no" (Cancel), in the array once it is shown. */
function dismissNextDialog(page: Page): string[] {
  const messages: string[] = [];
  page.once('dialog', (dialog) => {
    messages.push(dialog.message());
    void dialog.dismiss();
  });
  return messages;
}

async function openEditor(page: Page, host: string) {
  await page.goto('/webhooks');
  await page.getByLabel('Buscar').fill(host);
  const rows = page
    .getByTestId('webhook-list')
    .getByRole('listitem')
    .filter({ has: page.getByRole('link') });
  await expect(rows).toHaveCount(1);
  await rows.getByRole('link', { name: /Editar configuração/ }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Editar configuração');
}

test.describe('webhook configuration editor', () => {
  test('change URL, headers and events; the API sees it and the list reflects it', async ({ page, request }) => {
    await signIn(page, STAFF.webhooks, '/webhooks');
    await expectNoSeriousA11yViolations(page);
    await openEditor(page, 'receptor-a3');
    await expectNoSeriousA11yViolations(page);

    const newUrl = 'https://novo-receptor-a3.exemplo.com.br/eventos';
    await page.getByLabel('url', { exact: true }).fill(newUrl);

    // The seeded header's value is masked until shown.
    const firstValue = page.getByLabel('valor do cabeçalho 1', { exact: true });
    await expect(firstValue).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Mostrar valor do cabeçalho 1' }).click();
    await expect(firstValue).toHaveAttribute('type', 'text');
    await expect(firstValue).toHaveValue('segredo-do-receptor');
    await firstValue.fill('novo-segredo');

    await page.getByRole('button', { name: /Adicionar cabeçalho/ }).click();
    await page.getByLabel('chave do cabeçalho 2', { exact: true }).fill('X-Origem');
    await page.getByLabel('valor do cabeçalho 2', { exact: true }).fill('console');
    // A name that does not look like a credential: its value is shown (X-Api-Key's stays masked).
    await expect(page.getByLabel('valor do cabeçalho 2', { exact: true })).toHaveAttribute('type', 'text');

    // Each switch reads as the event's name, with its API name beneath.
    await expect(page.locator('label[for="eventoAvaliacaoSaudeAprovada"]')).toHaveText(
      /^Avaliação aprovada\s*eventoAvaliacaoSaudeAprovada$/,
    );
    await page.getByLabel('eventoAvaliacaoSaudeAprovada').uncheck();
    await page.getByLabel('eventoAvaliacaoSaudeArquivada').check();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();

    const api = await request.get(webhookPath(WEBHOOK_IDS.a3), { headers: bearer(await tokenFor(request)) });
    expect(await api.json()).toMatchObject({
      url: newUrl,
      headers: [
        { chave: 'X-Api-Key', valor: 'novo-segredo' },
        { chave: 'X-Origem', valor: 'console' },
      ],
      eventoAvaliacaoSaudeAprovada: false,
      eventoAvaliacaoSaudeAguardandoAprovacao: false,
      eventoAvaliacaoSaudeArquivada: true,
      eventoAvaliacaoSaudeDesarquivada: false,
      eventoPropostaCancelada: true,
    });

    // Back to the list without a page load: react-query refetched it.
    await page.getByRole('link', { name: 'Voltar para a lista' }).click();
    await page.getByLabel('Buscar').fill('novo-receptor-a3');
    await expect(page.getByTestId('webhook-list')).toContainText(newUrl);
  });

  test('validation messages appear as you type, in the API’s words', async ({ page }) => {
    await signIn(page, STAFF.admin, '/webhooks');
    await openEditor(page, 'receptor-a5');
    const url = page.getByLabel('url', { exact: true });
    await url.fill('');
    await expect(page.getByText('Não pode ficar vazio.')).toBeVisible();
    await expect(url).toHaveAttribute('aria-invalid', 'true');

    await page.getByRole('button', { name: /Adicionar cabeçalho/ }).click();
    await page.getByLabel('valor do cabeçalho 2', { exact: true }).fill('sem chave');
    await page.getByLabel('chave do cabeçalho 2', { exact: true }).fill('x');
    await page.getByLabel('chave do cabeçalho 2', { exact: true }).fill('');
    await expect(page.getByLabel('chave do cabeçalho 2', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByText('Corrija os campos destacados.')).toBeVisible();
    await url.fill('https://receptor-a5.exemplo.com.br/hooks');
    await expect(page.getByText('Não pode ficar vazio.')).toHaveCount(1); // only the header's left
  });

  test('a save over someone else’s newer save gets 412 and offers to reload', async ({ context }) => {
    const first = await context.newPage();
    await signIn(first, STAFF.webhooks, '/webhooks');
    const second = await context.newPage();
    await openEditor(first, 'receptor-a4');
    await second.goto(first.url());
    await expect(second.getByLabel('url', { exact: true })).toHaveValue('https://receptor-a4.exemplo.com.br/hooks');

    await first.getByLabel('url', { exact: true }).fill('https://primeira-aba-a4.exemplo.com.br/hooks');
    await first.getByRole('button', { name: 'Salvar' }).click();
    await expect(first.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();

    await second.getByLabel('eventoPropostaCancelada').uncheck();
    await second.getByRole('button', { name: 'Salvar' }).click();
    const conflict = second.locator('main').getByRole('alert').filter({ hasText: 'Esta configuração foi alterada em outro lugar' });
    await expect(conflict).toBeVisible();
    await expectNoSeriousA11yViolations(second);
    // Reloading throws the unsaved change away: the console asks first.
    const question = new Promise<string>((resolve) =>
      second.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    await conflict.getByRole('button', { name: 'Recarregar' }).click();
    expect(await question).toBe('Recarregar descarta as alterações não salvas. Continuar?');
    await expect(second.getByLabel('url', { exact: true })).toHaveValue('https://primeira-aba-a4.exemplo.com.br/hooks');
    await expect(second.getByLabel('eventoPropostaCancelada')).toBeChecked();
    await expect(conflict).toHaveCount(0);
  });

  test('unsaved edits are not discarded without asking', async ({ page }) => {
    await signIn(page, STAFF.webhooks, '/webhooks');
    await openEditor(page, 'receptor-a5');
    // Untouched: Cancelar just leaves.
    await page.getByRole('link', { name: 'Cancelar' }).click();
    await expect(page).toHaveURL(/\/webhooks$/);
    await openEditor(page, 'receptor-a5');
    await page.getByLabel('url', { exact: true }).fill('https://mudado-a5.exemplo.com.br/hooks');

    // Cancelar asks; "no" keeps the edit on screen, "yes" leaves without saving.
    const dialogs = dismissNextDialog(page);
    await page.getByRole('link', { name: 'Cancelar' }).click();
    await expect.poll(() => dialogs).toEqual(['Há alterações não salvas. Descartá-las e sair?']);
    await expect(page.getByLabel('url', { exact: true })).toHaveValue('https://mudado-a5.exemplo.com.br/hooks');

    // Closing or reloading the tab gets the browser's own question.
    const beforeUnload = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.dismiss();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await beforeUnload).toBe('beforeunload');
  });

  test('on a slow network the form waits for the page to be ready, and an edit made just before Cancelar still counts', async ({
    page,
  }) => {
    await signIn(page, STAFF.webhooks, '/webhooks');
    await openEditor(page, 'receptor-a5');
    const editor = page.url();
    // Every script arrives 2 s late: the server-rendered form is on screen well before React runs,
    // and the contract (loaded on the first check) is still on its way when Cancelar is clicked.
    await page.route('**/_next/static/chunks/**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      await route.continue();
    });
    await page.goto(editor, { waitUntil: 'commit' });
    const url = page.getByLabel('url', { exact: true });
    await expect(url).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Salvar' })).toBeDisabled();

    await url.fill('https://mudado-cedo-a5.exemplo.com.br/hooks');
    const dialogs = dismissNextDialog(page);
    await page.getByRole('link', { name: 'Cancelar' }).click();
    await expect.poll(() => dialogs).toEqual(['Há alterações não salvas. Descartá-las e sair?']);
    await expect(url).toHaveValue('https://mudado-cedo-a5.exemplo.com.br/hooks');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  test('a malformed id, or one of no configuration, is a real 404 with one main landmark', async ({ page }) => {
    await signIn(page, STAFF.webhooks, '/webhooks');
    const response = await page.goto('/webhooks/nao-e-um-uuid');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Página não encontrada (404)');
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('navigation', { name: 'Navegação principal' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // A well-formed id still opens the editor.
    expect((await page.goto(`/webhooks/${WEBHOOK_IDS.a5.toUpperCase()}`))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Editar configuração');
    // A well-formed id of no configuration is a real 404 too: the page reads the configuration before it renders.
    expect((await page.goto('/webhooks/00000000-0000-4000-8000-000000000000'))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Página não encontrada (404)');
  });
});

test('a look-alike host name shows its punycode form before saving, and is saved in it', async ({ page }) => {
  await signIn(page, STAFF.webhooks, '/webhooks');
  await openEditor(page, 'receptor-a10');
  const url = page.getByLabel('url', { exact: true });
  // "аpple.com" with a Cyrillic а: it reads as apple.com.
  await url.fill('https://\u0430pple.com/hooks');
  const asciiForm = page.locator('#url-ascii-form');
  await expect(asciiForm).toHaveText(
    'Este endereço tem caracteres não latinos. Ele será gravado e chamado como: https://xn--pple-43d.com/hooks',
  );
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();
  await expect(url).toHaveValue('https://xn--pple-43d.com/hooks');
  await expect(asciiForm).toBeEmpty();
});

test('staff create a configuration for a tenant, find it in the list, and delete it after a confirmation', async ({ page }) => {
  await signIn(page, STAFF.webhooks, '/webhooks');
  await page.getByRole('link', { name: 'Nova configuração' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nova configuração');
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Criar' }).click();
  await expect(page.getByText('Corrija os campos destacados.')).toBeVisible();

  // A tenant of its own: the API specs' lists must not see it while it exists.
  await page.getByLabel('usuarioId').fill('66666666-6666-4666-8666-666666666666');
  await page.getByLabel('sistemaOrigem').fill('6');
  // The create form shows a look-alike host's punycode form too, and says nothing for a plain one.
  await page.getByLabel('url', { exact: true }).fill('https://\u0430pple.com/hooks');
  await expect(page.locator('#url-ascii-form')).toContainText('https://xn--pple-43d.com/hooks');
  await page.getByLabel('url', { exact: true }).fill('https://criado-no-console.exemplo.com.br/eventos');
  await expect(page.locator('#url-ascii-form')).toBeEmpty();
  await page.getByLabel('eventoPropostaCancelada').check();
  await page.getByRole('button', { name: 'Criar' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Editar configuração');
  await expect(page.getByLabel('url', { exact: true })).toHaveValue('https://criado-no-console.exemplo.com.br/eventos');
  await expect(page.getByLabel('eventoPropostaCancelada')).toBeChecked();
  const id = page.url().split('/').pop()!;

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Excluir configuração' }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await page.getByLabel('Buscar').fill('criado-no-console');
  await expect(page.getByText('Nenhuma configuração encontrada.')).toBeVisible();
  expect((await page.request.get(`/api/v2/avaliacao-saude/configuracao-web-hook/${id}`)).status()).toBe(404);
});

test('the technical contact’s e-mail (emailContato): saved from the editor, refused when not an address, removed when emptied', async ({
  page,
}) => {
  await signIn(page, STAFF.webhooks, '/webhooks');
  // A configuration of a tenant of its own, made for this test (the others' states are other tests').
  const origin = new URL(page.url()).origin;
  const created = await page.request.post('/api/v2/avaliacao-saude/configuracao-web-hook', {
    headers: { Origin: origin },
    data: { usuarioId: '77777777-7777-4777-8777-777777777777', sistemaOrigem: 7, url: 'https://contato-tecnico.exemplo.com.br/eventos' },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const stored = async () =>
    ((await (await page.request.get(`/api/v2/avaliacao-saude/configuracao-web-hook/${id}`)).json()) as { emailContato: string | null })
      .emailContato;
  try {
    await openEditor(page, 'contato-tecnico');
    const contact = page.getByLabel('emailContato', { exact: true });
    await expect(contact).toHaveValue('');
    await contact.fill('não é um endereço');
    await expect(contact).toHaveAttribute('aria-invalid', 'true');
    await contact.fill('ti@parceiro.exemplo.com.br');
    await expect(contact).not.toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();
    expect(await stored()).toBe('ti@parceiro.exemplo.com.br');

    await page.reload();
    await expect(contact).toHaveValue('ti@parceiro.exemplo.com.br');
    // Told nothing until its owner confirms it from the e-mailed link (issue 43): the field says so.
    await expect(page.getByText('Aguardando a confirmação pelo link enviado ao endereço')).toBeVisible();
    await contact.fill('');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Configuração salva.' })).toBeVisible();
    expect(await stored()).toBeNull();
  } finally {
    await page.request.delete(`/api/v2/avaliacao-saude/configuracao-web-hook/${id}`, { headers: { Origin: origin } });
  }
});
