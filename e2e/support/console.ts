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
 * axe-core on the page once its forms are ready and its title is there: no violation of serious or
 * critical impact.
 * Until hydration a form's controls are disabled (components/ui/form.tsx); WCAG exempts inactive
 * controls from contrast, but axe does not see a disabled fieldset as making them inactive.
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  await expect(page.locator('form[aria-busy="true"]')).toHaveCount(0);
  // Next streams the <title> with the page's metadata, and a refresh of the page's server data
  // (after a save) renders it again: on a loaded machine axe once ran in between and found no
  // title. A page that never gets one still fails here.
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
  expect(serious, serious.join('\n')).toEqual([]);
}

/**
 * How the page fits a narrow viewport: its scroll width (more than the viewport: it scrolls
 * sideways) and the visible elements that reach past either edge outside a scrolling box (cut
 * off: content pushed past the left edge never makes the page scroll, so the width alone misses it).
 */
export async function horizontalFit(page: Page): Promise<{ scrollWidth: number; viewport: number; cutOff: string[] }> {
  return page.evaluate(() => {
    // Inside a box that scrolls sideways (a wide table), or not drawn at all (sr-only's clip-path).
    const exempt = (element: Element) => {
      if (getComputedStyle(element).clipPath !== 'none') return true;
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (/auto|scroll/.test(style.overflowX) || style.clipPath !== 'none') return true;
      }
      return false;
    };
    const cutOff = [...document.body.querySelectorAll('*')]
      .filter((element) => {
        const box = element.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) return false;
        if (box.left > -1 && box.right < window.innerWidth + 1) return false;
        return !exempt(element);
      })
      .map((element) => `<${element.tagName.toLowerCase()}> “${(element.textContent ?? '').trim().slice(0, 50)}”`);
    return { scrollWidth: document.documentElement.scrollWidth, viewport: window.innerWidth, cutOff };
  });
}
