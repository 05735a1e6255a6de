import { expect, test } from '../support/browser-test';
import { signIn } from '../support/console';
import { STAFF, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The interactive API reference renders the OpenAPI document with assets the app serves itself:
 * every request the page makes stays on this server, so it works offline.
 */
test('the API reference at /api/docs renders the operations with nothing loaded from outside', async ({ page, baseURL }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto('/api/docs');

  await expect(page.getByText('Integration Console API').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('/api/v1/auth/token').first()).toBeVisible();
  // Both halves of the contract are there: opening a section lists its operations.
  for (const [section, path] of [
    ['Scheduling', '/api/v1/agendamentos/slots-livres/reservar'],
    ['Webhooks', '/api/v2/avaliacao-saude/configuracao-web-hook/{id}'],
  ] as const) {
    await page.getByRole('link', { name: section, exact: true }).first().click();
    await expect(
      page
        .getByRole('list', { name: `${section} endpoints` })
        .getByText(path, { exact: true })
        .first(),
    ).toBeVisible();
  }

  const origin = new URL(baseURL!).origin;
  const outside = requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'));
  expect(outside).toEqual([]);
  expect(requested).toContain(`${origin}/vendor/scalar/standalone.js`);
});

test('the console header links to the API reference', async ({ page }) => {
  await signIn(page, STAFF.admin);
  await expect(page.getByRole('link', { name: /^(Referência da API|API reference)$/ })).toHaveAttribute('href', '/api/docs');
});

test('each event toggle of the editor opens its notification in the reference: the body, its signature headers and an example', async ({
  page,
  context,
}) => {
  await signIn(page, STAFF.webhooks, `/webhooks/${WEBHOOK_IDS.a4}`);
  const link = page.getByRole('link', {
    name: /^(Ver a mensagem e um exemplo ?: Proposta cancelada|See the message and an example ?: Proposal cancelled)$/,
  });
  const [reference] = await Promise.all([context.waitForEvent('page'), link.click()]);
  await expect(reference.getByRole('heading', { name: 'proposta.cancelada', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(reference.getByText('webhook-signature', { exact: true }).first()).toBeVisible();
  await expect(reference.getByText('"proposta.cancelada"').first()).toBeVisible();
  await reference.screenshot({ path: test.info().outputPath('webhook-catalogue.png') });
  await reference.close();
});

for (const width of [1280, 390]) {
  test(`at ${width} px the API reference is in one language, has the console's icon and a way back to the console`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/api/docs');
    await expect(page.getByText('Integration Console API').first()).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    // Section names in the document's language (English, as its titles and descriptions).
    const document = (await (await request.get('/api/openapi.json')).json()) as { tags: { name: string }[] };
    expect(document.tags.map((tag) => tag.name)).toEqual([
      'Authentication',
      'Webhooks',
      'Webhook deliveries',
      'Scheduling',
      'Partner portal',
      'Administration',
      'Audit',
      'Operations',
      'Notifications (webhooks)',
      'Operational notifications (webhooks)',
    ]);
    // The icon the browser asks for, at the page's link and at /favicon.ico, both found.
    expect((await request.get('/favicon.ico')).status()).toBe(200);
    expect((await request.get((await page.locator('link[rel="icon"]').first().getAttribute('href'))!)).status()).toBe(200);

    if (width === 1280) {
      // Scalar's auth card: "Authentication Required" whole, not cut off under "Selected Auth Type".
      const required = page.getByTestId('auth-indicator');
      await expect(required).toHaveText('Required');
      const selector = page.getByRole('button', { name: /^Selected Auth Type/ });
      const [label, choice] = [await required.boundingBox(), await selector.boundingBox()];
      const clipped = await required.evaluate((element) => {
        const box = element.getBoundingClientRect();
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          const clip = parent.getBoundingClientRect();
          if (getComputedStyle(parent).overflow !== 'visible' && (box.right > clip.right + 0.5 || box.left < clip.left - 0.5)) return true;
        }
        return false;
      });
      expect(clipped).toBe(false);
      const overlaps =
        label!.x < choice!.x + choice!.width &&
        choice!.x < label!.x + label!.width &&
        label!.y < choice!.y + choice!.height &&
        choice!.y < label!.y + label!.height;
      expect(overlaps).toBe(false);
    }
    await page.screenshot({ path: test.info().outputPath(`reference-${width}.png`) });

    await page.getByRole('link', { name: '← Back to the Integration Console' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
  });
}
