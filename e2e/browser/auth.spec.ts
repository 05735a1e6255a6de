import { expect, test } from '../support/browser-test';
import { apiPath, routes } from '@/lib/api/routes';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { staffSessionCookie } from '../support/server-db';
import { STAFF } from '../support/test-seed';

// Brazilian staff: the browser asks for pt-BR, as theirs do (the console's default language).
test.use({ locale: 'pt-BR' });

test.describe('console sign-in, roles and brute-force protection', () => {
  test('sign in, land on the first allowed area, sign out', async ({ page }) => {
    await page.goto('/webhooks');
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fwebhooks/);
    await expectNoSeriousA11yViolations(page);

    await signIn(page, STAFF.webhooks, '/webhooks');
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Configurações de webhook');

    await page.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL(/\/sign-in\?signedOut=1/);
    await expect(page.locator('main').getByRole('status')).toHaveText('Você saiu do console.');
    // The session is gone for pages and API alike.
    await page.goto('/webhooks');
    await expect(page).toHaveURL(/\/sign-in/);
    expect((await page.request.get('/api/v2/avaliacao-saude/configuracao-web-hook')).status()).toBe(401);
  });

  test('a session that ends while a page is open sends its next API call to sign-in, with the way back to that page', async ({ page }) => {
    await signIn(page, STAFF.webhooks, '/webhooks');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Configurações de webhook');
    // The session's cookie gone (expired, or signed out elsewhere): the list's next request is the console API's 401.
    await page.context().clearCookies();
    await page.getByLabel('Buscar').fill('depois-de-expirar');
    await expect(page).toHaveURL(/\/sign-in\?expired=1&callbackUrl=%2Fwebhooks$/);
    await expect(page.locator('main').getByRole('status')).toHaveText('Sua sessão terminou. Entre novamente.');
  });

  test('a wrong password and an unknown e-mail get the same answer', async ({ page }) => {
    for (const email of [STAFF.admin.email, 'ninguem-existe@e2e.exemplo.com.br']) {
      await page.goto('/sign-in');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Senha').fill('senha-errada-123');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await expect(page.locator('main').getByRole('alert')).toHaveText('E-mail ou senha incorretos.');
    }
  });

  test('empty fields are named before anything is sent', async ({ page }) => {
    let sent = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/callback')) sent++;
    });
    await page.goto('/sign-in');
    // The e-mail field is focused once the form is ready (it is disabled until hydration).
    await expect(page.getByLabel('E-mail')).toBeFocused();
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.locator('#email-error')).toHaveText('Informe o e-mail.');
    await expect(page.locator('#password-error')).toHaveText('Informe a senha.');
    await expect(page.getByLabel('E-mail')).toBeFocused();
    await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('E-mail ou senha incorretos.')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('E-mail').fill(STAFF.admin.email);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.locator('#email-error')).toHaveCount(0);
    await expect(page.locator('#password-error')).toHaveText('Informe a senha.');
    await expect(page.getByLabel('Senha')).toBeFocused();
    expect(sent).toBe(0);
  });

  test('a role without an area sees no link, and page and API answer 403', async ({ page }) => {
    await signIn(page, STAFF.scheduling);
    await expect(page).toHaveURL(/\/scheduling$/);
    const nav = page.getByRole('navigation', { name: 'Navegação principal' });
    await expect(nav.getByRole('link', { name: 'Reserva de horários' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Webhooks' })).toHaveCount(0);

    const response = await page.goto('/webhooks');
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acesso negado (403)');
    await expectNoSeriousA11yViolations(page);
    expect((await page.request.get('/api/v2/avaliacao-saude/configuracao-web-hook')).status()).toBe(403);

    const editor = await page.goto('/webhooks/aaaaaaaa-0003-4000-8000-000000000003');
    expect(editor?.status()).toBe(403);
  });

  test('the webhooks role cannot open slot reservation', async ({ page }) => {
    await signIn(page, STAFF.webhooks);
    await expect(page.getByRole('link', { name: 'Reserva de horários' })).toHaveCount(0);
    expect((await page.goto('/scheduling'))?.status()).toBe(403);
    expect((await page.request.get('/api/v1/agendamentos/slots-livres')).status()).toBe(403);
  });

  test('repeated failures lock sign-in for a while, for known and unknown e-mails alike', async ({ page }) => {
    for (const account of [STAFF.lockout, { email: 'desconhecido-bloqueio@e2e.exemplo.com.br', password: 'qualquer-coisa-1' }]) {
      await page.goto('/sign-in');
      for (let attempt = 1; attempt <= 5; attempt++) {
        await page.getByLabel('E-mail').fill(account.email);
        await page.getByLabel('Senha').fill(`errada-${attempt}`);
        await page.getByRole('button', { name: 'Entrar' }).click();
        await expect(page.locator('main').getByRole('alert')).toHaveText('E-mail ou senha incorretos.');
      }
      // Now even the right password is refused, with a message that says nothing about the account.
      await page.getByLabel('E-mail').fill(account.email);
      await page.getByLabel('Senha').fill(account.password);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await expect(page.locator('main').getByRole('alert')).toHaveText(
        'Muitas tentativas sem sucesso. Aguarde alguns minutos e tente novamente.',
      );
      await expect(page).toHaveURL(/\/sign-in/);
    }
  });
});

test('a password change signs the account out in its other browser, not in this one', async ({ page, browser, request, baseURL }) => {
  const person = { email: 'duas-janelas@e2e.exemplo.com.br', password: 'Girassol-Trem-Azul-77', name: 'Duas Janelas', roles: ['webhooks'] };
  const admin = { cookie: await staffSessionCookie(STAFF.admin.email), origin: new URL(baseURL!).origin };
  const created = await request.post(apiPath(routes.createStaff), {
    headers: admin,
    data: { email: person.email, nome: person.name, perfis: person.roles },
  });
  const token = new URL(((await created.json()) as { definicaoSenha: { link: string } }).definicaoSenha.link).searchParams.get('token');
  expect((await request.post(apiPath(routes.setPasswordWithLink), { data: { token, senha: person.password } })).status()).toBe(204);

  const elsewhere = await browser.newContext({ locale: 'pt-BR' });
  try {
    const other = await elsewhere.newPage();
    await signIn(other, person as never, '/webhooks');
    await signIn(page, person as never, '/conta');
    await page.getByLabel('Senha atual').fill(person.password);
    await page.getByLabel('Nova senha', { exact: true }).fill('Outra-Senha-Muito-Boa-88');
    await page.getByLabel('Repita a nova senha').fill('Outra-Senha-Muito-Boa-88');
    await page.getByRole('button', { name: 'Salvar senha' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Senha alterada.' })).toBeVisible();

    await other.reload();
    await expect(other).toHaveURL(/\/sign-in/);
    await page.goto('/webhooks');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Configurações de webhook');
    await expect(page.getByTestId('signed-in-user')).toContainText(person.name);
  } finally {
    await elsewhere.close();
  }
});

test('the console’s CSP blocks injected markup’s inline script and event handlers', async ({ page, cspViolations }) => {
  await page.goto('/sign-in');
  // What a stored-XSS payload does once some value reaches the page as HTML.
  const ran = await page.evaluate(async () => {
    const frame = document.createElement('div');
    frame.innerHTML = '<img src="data:," onerror="window.__injected = true">';
    document.body.append(frame);
    document.body.insertAdjacentHTML('beforeend', '<iframe srcdoc="<script>parent.__injected = true</script>"></iframe>');
    await new Promise((resolve) => setTimeout(resolve, 300));
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
  expect(cspViolations.map((violation) => violation.directive)).toContain('script-src-attr');
  cspViolations.length = 0; // these were on purpose
});
