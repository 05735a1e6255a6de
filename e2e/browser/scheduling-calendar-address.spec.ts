import type { Page } from '@playwright/test';
import { expect, test } from '../support/browser-test';
import { signIn } from '../support/console';
import { SLOTS_PER_AGENDA, STAFF, seedDay, slotOf } from '../support/test-seed';

test.use({ locale: 'pt-BR' });

/**
 * The calendar's first view arrives with the page, and its day and view are in the address (issue
 * 47). Reads only (agendas 930 and 931, which no spec reserves on).
 */
const calendar = (page: Page) => page.getByTestId('slot-calendar');
const column = (page: Page, name: string) => calendar(page).getByRole('list', { name, exact: true });
const heading = (page: Page) => calendar(page).getByRole('heading', { level: 3 });
const addDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

test('the server’s HTML holds the calendar’s view of the address: its slots, and no “Carregando” in its place', async ({
  page,
  browser,
  baseURL,
}) => {
  await signIn(page, STAFF.scheduling, '/');
  const address = `/scheduling?dia=${seedDay()}&vista=dia&agenda=930`;
  const answer = await page.request.get(address);
  expect(answer.status()).toBe(200);
  const html = await answer.text();
  expect(html).toContain('data-testid="slot-calendar"');
  for (let index = 0; index < SLOTS_PER_AGENDA; index++) expect(html).toContain(`data-slot="${slotOf(930, index)}"`);

  // The same address in a browser that runs no script: what the server rendered is all there is.
  const noScript = await browser.newContext({
    baseURL,
    locale: 'pt-BR',
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  try {
    const plain = await noScript.newPage();
    expect((await plain.goto(address))?.status()).toBe(200);
    await expect(column(plain, 'Agenda 930').getByRole('listitem')).toHaveCount(SLOTS_PER_AGENDA);
    await expect(calendar(plain)).not.toContainText('Carregando');
    await expect(calendar(plain).getByLabel('Agenda (cdAgenda)')).toHaveValue('930');
    // The week of the address, one agenda: seven days, the seed's day holding its slots.
    expect((await plain.goto(`/scheduling?dia=${seedDay()}&vista=semana&agenda=931`))?.status()).toBe(200);
    await expect(calendar(plain).getByRole('list', { name: /feira|sábado|domingo/ })).toHaveCount(7);
    const counts = await calendar(plain)
      .getByRole('list', { name: /feira|sábado|domingo/ })
      .evaluateAll((lists) => lists.map((list) => list.querySelectorAll('li').length));
    expect(counts).toContain(SLOTS_PER_AGENDA);
    await expect(calendar(plain)).not.toContainText('Carregando');
    // With no address the calendar opens on the soonest free slot's day, every agenda side by side.
    await plain.goto('/scheduling');
    await expect(column(plain, 'Agenda 900')).toBeVisible();
    await expect(calendar(plain)).not.toContainText('Carregando');
    await plain.screenshot({ path: test.info().outputPath('no-script.png'), fullPage: true });
  } finally {
    await noScript.close();
  }
});

test('moving through the calendar writes its day and view into the address; back and forward return to them', async ({ page }) => {
  await signIn(page, STAFF.scheduling, '/scheduling');
  await expect(column(page, 'Agenda 900')).toBeVisible();
  const day = seedDay();

  await calendar(page).getByLabel('Agenda (cdAgenda)').selectOption('931');
  await expect(page).toHaveURL(/[?&]agenda=931(&|$)/);
  await expect(column(page, 'Agenda 900')).toHaveCount(0);
  await calendar(page).getByRole('button', { name: 'Próximo dia' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]dia=${addDay(day, 1)}(&|$)`));
  await expect(calendar(page).getByText('Nenhum horário futuro neste dia.')).toBeVisible();

  await calendar(page).getByRole('button', { name: 'Semana', exact: true }).click();
  await expect(page).toHaveURL(/[?&]vista=semana(&|$)/);
  await expect(page).toHaveURL(/[?&]agenda=931(&|$)/);
  await expect(calendar(page).getByRole('list', { name: /feira|sábado|domingo/ })).toHaveCount(7);
  const week = (await heading(page).textContent()) ?? '';
  await page.screenshot({ path: test.info().outputPath('week-from-address.png'), fullPage: true });

  await page.goBack();
  await expect(page).not.toHaveURL(/vista=semana/);
  await expect(calendar(page).getByRole('button', { name: 'Dia', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.goBack();
  await expect(column(page, 'Agenda 931')).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/scheduling$/);
  await expect(column(page, 'Agenda 900')).toBeVisible();

  await page.goForward();
  await page.goForward();
  await page.goForward();
  await expect(page).toHaveURL(/[?&]vista=semana(&|$)/);
  await expect(heading(page)).toHaveText(week);

  // A reload keeps the place: the address is the calendar's state.
  await page.reload();
  await expect(heading(page)).toHaveText(week);
  await expect(calendar(page).getByLabel('Agenda (cdAgenda)')).toHaveValue('931');
});

test('an address the calendar cannot read opens its usual first view with 200, never an error page', async ({ page }) => {
  await signIn(page, STAFF.scheduling, '/');
  for (const query of ['dia=2026-02-30&vista=mes', 'dia=amanha&agenda=-3', 'dia=9999-99-99&vista=Semana', 'dia=%E0%A4%A']) {
    expect((await page.goto(`/scheduling?${query}`))?.status(), query).toBe(200);
    await expect(column(page, 'Agenda 900'), query).toBeVisible();
    await expect(calendar(page).getByRole('button', { name: 'Dia', exact: true })).toHaveAttribute('aria-pressed', 'true');
  }
  // A bad day beside a good view: the view is kept, on the usual first day.
  expect((await page.goto('/scheduling?dia=2026-13-01&vista=semana'))?.status()).toBe(200);
  await expect(calendar(page).getByRole('list', { name: /feira|sábado|domingo/ })).toHaveCount(7);
});
