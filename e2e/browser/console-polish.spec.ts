import type { Page } from '@playwright/test';
import { expect, test } from '../support/browser-test';
import { expectNoSeriousA11yViolations, horizontalFit, signIn } from '../support/console';
import { STAFF, WEBHOOK_IDS } from '../support/test-seed';

/**
 * Issue 21 on the shared server: the console at phone widths (no sideways scrolling, the header's
 * Menu), and the admin screens' refusals, confirmations and field hints.
 */
test.use({ locale: 'pt-BR' });

/** The message of the page's next dialog, answered as `answer` says, in the array once it is shown. */
function answerNextDialog(page: Page, answer: 'accept' | 'dismiss'): string[] {
  const messages: string[] = [];
  page.once('dialog', (dialog) => {
    messages.push(dialog.message());
    void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
  });
  return messages;
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** Every console page each role opens (scheduling's page included: it is in the header too). */
const PAGES: Record<'admin' | 'webhooks' | 'scheduling', string[]> = {
  admin: [
    '/admin/clientes',
    '/admin/equipe',
    '/conta',
    '/webhooks',
    '/webhooks/saude',
    '/webhooks/new',
    `/webhooks/${WEBHOOK_IDS.a1}`,
    '/scheduling',
  ],
  webhooks: ['/webhooks', '/webhooks/saude', '/webhooks/new', `/webhooks/${WEBHOOK_IDS.a1}`, '/conta'],
  scheduling: ['/scheduling', '/conta'],
};

test.describe('at phone widths', () => {
  for (const role of ['admin', 'webhooks', 'scheduling'] as const) {
    for (const width of [360, 390]) {
      test(`no page scrolls sideways for ${role} staff at ${width} px`, async ({ page }) => {
        await page.setViewportSize({ width, height: 800 });
        await signIn(page, STAFF[role], PAGES[role][0]);
        for (const path of PAGES[role]) {
          await page.goto(path);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await expect(page.locator('form[aria-busy="true"]')).toHaveCount(0);
          const fit = await horizontalFit(page);
          expect(fit.scrollWidth, `${path} is ${fit.scrollWidth} px wide at ${width} px`).toBe(fit.viewport);
          expect(fit.cutOff, `${path} cut off at ${width} px`).toEqual([]);
          if (width === 360) await shot(page, `${role}-${path.replaceAll('/', '_')}`);
        }
      });
    }
  }

  test('pages outside the console fit too: sign-in, set password, not found, forbidden', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    for (const path of ['/sign-in', '/definir-senha?token=link-que-nao-existe', '/pagina-que-nao-existe']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await horizontalFit(page), path).toEqual({ scrollWidth: 360, viewport: 360, cutOff: [] });
    }
    await signIn(page, STAFF.scheduling, '/scheduling');
    expect((await page.goto('/webhooks'))?.status()).toBe(403);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acesso negado (403)');
    expect(await horizontalFit(page)).toEqual({ scrollWidth: 360, viewport: 360, cutOff: [] });
  });

  test('the header folds into a Menu button that opens, closes on Escape and on navigation, by keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signIn(page, STAFF.admin, '/admin/equipe');
    const menu = page.getByRole('button', { name: 'Menu' });
    const nav = page.getByRole('navigation', { name: 'Navegação principal' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    const controlled = await menu.getAttribute('aria-controls');
    await expect(page.locator(`#${controlled}`)).toContainText('Minha senha');
    await shot(page, 'menu-closed');

    await menu.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link')).toHaveText([
      'Webhooks',
      'Saúde das entregas',
      'Reserva de horários',
      'Clientes de API',
      'Equipe',
      'Minha senha',
    ]);
    await expect(nav.getByRole('link', { name: 'Equipe' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('button', { name: 'Sair' })).toBeVisible();
    await expect(page.getByLabel('Idioma')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    expect(await horizontalFit(page)).toEqual({ scrollWidth: 390, viewport: 390, cutOff: [] });
    await shot(page, 'menu-open');

    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();
    await expect(nav).toBeHidden();

    // Open again, Tab to "Minha senha" and follow it: the menu closes on the new page.
    await page.keyboard.press('Space');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    const account = nav.getByRole('link', { name: 'Minha senha' });
    for (let tab = 0; tab < 10 && !(await account.evaluate((link) => link === document.activeElement)); tab++) {
      await page.keyboard.press('Tab');
    }
    await expect(account).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Minha senha');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
  });

  test('on a wide screen the navigation is in the bar and there is no Menu button', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signIn(page, STAFF.admin, '/admin/clientes');
    await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Navegação principal' }).getByRole('link', { name: 'Minha senha' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(1280);
    await shot(page, 'header-1280');
    // Tab goes as the eye does: the brand, the controls on its row, then the navigation's row.
    await page.getByRole('link', { name: 'Console de Integração' }).focus();
    const expected: ['link' | 'combobox' | 'button', string][] = [
      ['link', 'Referência da API'],
      ['combobox', 'Idioma'],
      ['button', 'Sair'],
      ...['Webhooks', 'Saúde das entregas', 'Reserva de horários', 'Clientes de API', 'Equipe', 'Minha senha'].map(
        (name): ['link', string] => ['link', name],
      ),
    ];
    for (const [role, name] of expected) {
      await page.keyboard.press('Tab');
      await expect(page.getByRole('banner').getByRole(role, { name, exact: true }), `${role} ${name}`).toBeFocused();
    }
    await page.setViewportSize({ width: 1024, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(1024);
    await shot(page, 'header-1024');
  });
});

test('console links prefetch their page when reached for, not when they come into view', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, STAFF.admin, '/webhooks');
  // Router prefetches carry this header; a page view's own requests do not. One prefetch may take
  // more than one request (the route's tree, then its data), so pages are counted once.
  const seen = new Set<string>();
  const prefetched = () => [...seen];
  page.on('request', (request) => {
    if (request.headers()['next-router-prefetch']) seen.add(new URL(request.url()).pathname);
  });
  await page.goto('/webhooks');
  const nav = page.getByRole('navigation', { name: 'Navegação principal' });
  await expect(nav.getByRole('link')).toHaveCount(6);
  await page.waitForLoadState('networkidle');
  expect(prefetched()).toEqual([]);

  // The pointer over a link (a tap fires it too) or the focus on it starts its prefetch.
  await nav.getByRole('link', { name: 'Reserva de horários' }).hover();
  await expect.poll(prefetched).toEqual(['/scheduling']);
  await nav.getByRole('link', { name: 'Saúde das entregas' }).focus();
  await expect.poll(prefetched).toEqual(['/scheduling', '/webhooks/saude']);
  await nav.getByRole('link', { name: 'Reserva de horários' }).click();
  await expect(page).toHaveURL(/\/scheduling$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test.describe('staff accounts', () => {
  test('the admin’s own row offers no change the server refuses, and says why', async ({ page }) => {
    await signIn(page, STAFF.admin, '/admin/equipe');
    const own = page.locator(`[data-staff-email="${STAFF.admin.email}"]`);
    await expect(own).toContainText('você');
    const adminBox = own.getByRole('checkbox', { name: 'administrador' });
    await expect(adminBox).toBeChecked();
    await expect(adminBox).toBeDisabled();
    await expect(adminBox).toHaveAccessibleDescription('Você não pode remover o seu próprio perfil de administrador.');
    await expect(own.getByRole('button', { name: 'Desativar' })).toHaveCount(0);
    // Adding a role to oneself is allowed: that box stays free.
    await expect(own.getByRole('checkbox', { name: 'webhooks' })).toBeEnabled();
    await expectNoSeriousA11yViolations(page);
  });

  test('roles are saved on request with a confirmation; none at all is refused with its reason', async ({ page }) => {
    const email = `perfis.${Date.now()}@e2e.exemplo.com.br`;
    await signIn(page, STAFF.admin, '/admin/equipe');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Nome').fill('Pessoa dos Perfis');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    await expect(page.getByTestId('password-link')).toBeVisible();
    const row = page.locator(`[data-staff-email="${email}"]`);
    await expect(row.getByRole('checkbox', { name: 'agendamento' })).toBeChecked();

    // Unticking acts on nothing yet.
    await row.getByRole('checkbox', { name: 'agendamento' }).uncheck();
    await expect(row.getByRole('button', { name: 'Desfazer' })).toBeVisible();
    await row.getByRole('button', { name: 'Salvar perfis' }).click();
    await expect(row.getByRole('alert')).toHaveText(
      'Marque pelo menos um perfil: uma conta sem perfil não abre nada no console (para tirar o acesso de alguém, desative a conta).',
    );
    await shot(page, 'staff-roles-refused');

    await row.getByRole('checkbox', { name: 'webhooks' }).check();
    await row.getByRole('button', { name: 'Salvar perfis' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Perfis de ${email} salvos.` })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Salvar perfis' })).toHaveCount(0);
    await page.reload();
    await expect(row.getByRole('checkbox', { name: 'webhooks' })).toBeChecked();
    await expect(row.getByRole('checkbox', { name: 'agendamento' })).not.toBeChecked();
    await expectNoSeriousA11yViolations(page);
  });

  test('Desativar asks first and confirms; a disabled account says what a new password link does', async ({ page }) => {
    const email = `desativar.${Date.now()}@e2e.exemplo.com.br`;
    await signIn(page, STAFF.admin, '/admin/equipe');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Nome').fill('Pessoa a Desativar');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    const row = page.locator(`[data-staff-email="${email}"]`);

    const asked = answerNextDialog(page, 'dismiss');
    await row.getByRole('button', { name: 'Desativar' }).click();
    expect(asked[0]).toMatch(new RegExp(`^Desativar a conta de ${email.replaceAll('.', '\\.')}\\? A pessoa deixa de entrar no console`));
    await expect(row).not.toContainText('desativada');

    answerNextDialog(page, 'accept');
    await row.getByRole('button', { name: 'Desativar' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Conta de ${email} desativada.` })).toBeVisible();
    await expect(row).toContainText('desativada');
    await expect(row.getByRole('button', { name: 'Novo link de senha' })).toHaveAccessibleDescription(
      'Conta desativada: o link permite definir a senha, mas a pessoa só consegue entrar depois que a conta for reativada.',
    );
    await expect(page.getByText('“Novo link de senha” gera um link de uso único')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'staff-disabled');

    await row.getByRole('button', { name: 'Reativar' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Conta de ${email} reativada.` })).toBeVisible();
  });

  test('at phone width the staff list fits and stays usable', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 800 });
    await signIn(page, STAFF.admin, '/admin/equipe');
    await expect(page.getByTestId('staff-list').getByRole('listitem').first()).toBeVisible();
    expect(await horizontalFit(page)).toEqual({ scrollWidth: 360, viewport: 360, cutOff: [] });
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'staff-360');
  });
});

test.describe('API clients', () => {
  test('the new-client form says what each field is and takes, and generates a usuarioId', async ({ page }) => {
    await signIn(page, STAFF.admin, '/admin/clientes');
    const clientId = page.getByLabel('Identificador (clientId)');
    await expect(clientId).toHaveAccessibleDescription(/^O client_id com que o parceiro pede tokens: de 3 a 100 letras minúsculas/);
    await expect(page.getByLabel('Nome (nome)')).toHaveAccessibleDescription(/até 200 caracteres/);
    await expect(page.getByLabel('Sistema de origem (sistemaOrigem)')).toHaveAccessibleDescription(/número|numérico/);
    const usuarioId = page.getByLabel('Tenant (usuarioId)');
    await expect(usuarioId).toHaveAccessibleDescription(/^UUID do tenant na plataforma/);

    await page.getByRole('button', { name: 'Gerar um usuarioId novo (UUID aleatório)' }).click();
    await expect(usuarioId).toHaveValue(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const first = await usuarioId.inputValue();
    await page.getByRole('button', { name: 'Gerar um usuarioId novo (UUID aleatório)' }).click();
    await expect(usuarioId).not.toHaveValue(first);

    // No scope: refused with its reason, before anything is sent.
    const scopes = page.getByRole('group', { name: 'Escopos (escopos)' });
    for (const box of await scopes.getByRole('checkbox').all()) await box.uncheck();
    await clientId.fill('e2e-polish-parceiro');
    await page.getByLabel('Nome (nome)').fill('Parceiro do Polimento');
    await page.getByLabel('Sistema de origem (sistemaOrigem)').fill('12');
    await page.getByRole('button', { name: 'Criar cliente' }).click();
    await expect(scopes.getByText('Marque pelo menos um escopo.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'api-client-form');

    await scopes.getByRole('checkbox', { name: 'webhooks' }).check();
    const generated = await usuarioId.inputValue();
    await page.getByRole('button', { name: 'Criar cliente' }).click();
    await expect(page.getByTestId('client-secret')).toHaveText(/^ics_/);
    const row = page.locator('[data-client-id="e2e-polish-parceiro"]');
    await expect(row).toContainText(generated);

    // The revoke confirmation names the figure the server works by (REVOCATION_DELAY_SECONDS).
    const asked = answerNextDialog(page, 'dismiss');
    await row.getByRole('button', { name: 'Revogar' }).click();
    expect(asked).toEqual(['Revogar e2e-polish-parceiro? Os tokens dele deixam de valer em até 30 segundos.']);
    await expect(row).not.toContainText('revogado');
  });
});
