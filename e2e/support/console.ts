import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { STAFF } from './test-seed';

/** Helpers for browser specs of the staff console. */
export type StaffUser = (typeof STAFF)[keyof typeof STAFF];

export async function signIn(page: Page, user: StaffUser, path = '/') {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  await page.getByLabel(/^(E-mail)$/).fill(user.email);
  await page.getByLabel(/^(Senha|Password)$/).fill(user.password);
  await page.getByRole('button', { name: /^(Entrar|Sign in)$/ }).click();
  await expect(page.getByTestId('signed-in-user')).toContainText(user.name);
}

/**
 * axe-core on the page once its forms are ready: no violation of serious or critical impact.
 * Until hydration a form's controls are disabled (components/ui/form.tsx); WCAG exempts inactive
 * controls from contrast, but axe does not see a disabled fieldset as making them inactive.
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  await expect(page.locator('form[aria-busy="true"]')).toHaveCount(0);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
  expect(serious, serious.join('\n')).toEqual([]);
}
