import { apiPath, routes } from '@/lib/api/routes';
import { expect, test } from '../support/browser-test';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { STAFF } from '../support/test-seed';

test.use({ locale: 'pt-BR' });

/** An admin onboards a partner: the secret shown once works for a token; rotate and revoke ask first. */
test('create an API client, get a token with its secret, rotate and revoke it', async ({ page }) => {
  await signIn(page, STAFF.admin, '/admin/clientes');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clientes de API');
  await expectNoSeriousA11yViolations(page);

  await page.getByLabel('clientId').fill('e2e-parceiro-console');
  await page.getByLabel('nome').fill('Parceiro do Console');
  await page.getByLabel('usuarioId').fill('88888888-8888-4888-8888-888888888888');
  await page.getByLabel('sistemaOrigem').fill('8');
  await page.getByRole('button', { name: 'Criar cliente' }).click();
  const secret = page.getByTestId('client-secret');
  await expect(secret).toHaveText(/^ics_/);
  const clientSecret = (await secret.textContent())!;
  await expect(page.getByText('Copie agora e entregue ao parceiro: ele não será mostrado de novo.')).toBeVisible();

  const token = (value: string) =>
    page.request.post(apiPath(routes.issueToken), {
      form: { grant_type: 'client_credentials', client_id: 'e2e-parceiro-console', client_secret: value },
    });
  expect((await token(clientSecret)).status()).toBe(200);

  const row = page.locator('[data-client-id="e2e-parceiro-console"]');
  await page.reload();
  await expect(row).toContainText('Último token:');
  await expect(page.getByTestId('client-secret')).toHaveCount(0); // gone for good after a reload

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Gerar novo segredo' }).click();
  await expect(page.getByTestId('client-secret')).not.toHaveText(clientSecret);
  const rotated = (await page.getByTestId('client-secret').textContent())!;
  expect((await token(rotated)).status()).toBe(200);

  page.once('dialog', (dialog) => void dialog.accept());
  await row.getByRole('button', { name: 'Revogar' }).click();
  await expect(row).toContainText('revogado');
  expect((await token(rotated)).status()).toBe(401);
  await expectNoSeriousA11yViolations(page);
});
