import { expect, test } from '../support/browser-test';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { STAFF } from '../support/test-seed';

test.use({ locale: 'pt-BR' });

/** An admin creates an account; the person sets a password with the one-time link, signs in, changes it. */
test('create a staff account, set its password with the link, sign in, change the password', async ({ page, browser }) => {
  await signIn(page, STAFF.admin, '/admin/equipe');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Equipe');
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('E-mail').fill('nova.pessoa@e2e.exemplo.com.br');
  await page.getByLabel('Nome').fill('Nova Pessoa');
  await page.getByRole('button', { name: 'Criar conta' }).click();
  const link = (await page.getByTestId('password-link').textContent())!;
  expect(link).toContain('/definir-senha?token=');

  // The person, in a browser of their own without a session.
  const context = await browser.newContext({ locale: 'pt-BR' });
  const person = await context.newPage();
  await person.goto(link);
  await expect(person.getByRole('heading', { level: 1 })).toHaveText('Definir senha');
  await expectNoSeriousA11yViolations(person);
  await person.getByLabel('Nova senha', { exact: true }).fill('curta');
  await person.getByLabel('Repita a nova senha').fill('curta');
  await person.getByRole('button', { name: 'Salvar senha' }).click();
  await expect(person.getByText('A senha precisa ter pelo menos 12 caracteres.')).toBeVisible();
  await person.getByLabel('Nova senha', { exact: true }).fill('Girassol-Trem-Azul-77');
  await person.getByLabel('Repita a nova senha').fill('Girassol-Trem-Azul-77');
  await person.getByRole('button', { name: 'Salvar senha' }).click();
  await expect(person.getByText('Senha definida.')).toBeVisible();

  await signIn(
    person,
    { email: 'nova.pessoa@e2e.exemplo.com.br', password: 'Girassol-Trem-Azul-77', name: 'Nova Pessoa', roles: ['scheduling'] } as never,
    '/conta',
  );
  await expect(person.getByRole('heading', { level: 1 })).toHaveText('Minha senha');
  await person.getByLabel('Senha atual').fill('Girassol-Trem-Azul-77');
  await person.getByLabel('Nova senha', { exact: true }).fill('Outra-Senha-Muito-Boa-88');
  await person.getByLabel('Repita a nova senha').fill('Outra-Senha-Muito-Boa-88');
  await person.getByRole('button', { name: 'Salvar senha' }).click();
  await expect(person.getByRole('status').filter({ hasText: 'Senha alterada.' })).toBeVisible();
  await expectNoSeriousA11yViolations(person);
  await context.close();

  // Back at the admin: the account is listed, and can be disabled (after a confirmation).
  await page.reload();
  const row = page.locator('[data-staff-email="nova.pessoa@e2e.exemplo.com.br"]');
  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Desativar' }).click();
  await expect(row).toContainText('desativada');
});
