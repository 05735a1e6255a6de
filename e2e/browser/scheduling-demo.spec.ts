import type { Browser, Page } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { expect, test } from '../support/browser-test';
import { bearer, reservationBody, RESERVE_PATH } from '../support/api';
import { expectNoSeriousA11yViolations, horizontalFit } from '../support/console';
import { newDataDir, startServer, type RunningServer } from '../support/server';

/**
 * The reservation page as a new user meets it (issue 32): a server of its own with the README's
 * pt-BR demo data (SEED_DEMO, as `bash scripts/start.sh` seeds it), at 1280 and 390 px. The demo's
 * agenda 103 has 20-minute slots, its shortest; its slots start tomorrow.
 */
test.describe.configure({ mode: 'serial' });
test.use({ locale: 'pt-BR' });
// The demo is for the embedded default only (SEED_DEMO refuses a DATABASE_URL).
test.skip(Boolean(process.env.E2E_RUN_DATABASE_URL), 'the demo data is seeded on the embedded default only');

const DEMO_SCHEDULER = { email: 'agenda@clinica.exemplo.com.br', password: 'Agenda#2026', name: 'Carla Mendes' };
const DEMO_CLIENT = { clientId: 'portal-parceiro', clientSecret: 'segredo-demo-portal-2026' };

let server: RunningServer;
/** The slot of agenda 103 an API client holds: the soonest one, on the day the calendar opens on. */
let held: { nrSeqAgenda: number; start: string };

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(90_000);
  server = await startServer({ dataDir: newDataDir('scheduling-demo'), seed: false, env: { SEED_DEMO: 'true' } });
  const api = await playwright.request.newContext({ baseURL: server.url });
  const token = await api.post(apiPath(routes.issueToken), {
    form: { grant_type: 'client_credentials', client_id: DEMO_CLIENT.clientId, client_secret: DEMO_CLIENT.clientSecret },
  });
  const auth = bearer(((await token.json()) as { access_token: string }).access_token);
  const free = (await (await api.get(`${apiPath(routes.listFreeSlots)}?cdAgenda=103&limite=1`, { headers: auth })).json()) as {
    NR_SEQ_AGENDA: number;
    DT_AGENDA: string;
  }[];
  held = { nrSeqAgenda: free[0]!.NR_SEQ_AGENDA, start: free[0]!.DT_AGENDA };
  const reserved = await api.post(RESERVE_PATH, {
    headers: auth,
    data: reservationBody({ nrSeqAgenda: held.nrSeqAgenda, nrSeqProcInterno: 50103, nrMinDuracao: 20, cdPessoaFisica: 4242 }),
  });
  expect((await reserved.json()).CODIGO_P).toBe('0');
  await api.dispose();
});

test.afterAll(async () => {
  await server?.stop();
});

async function schedulingPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, locale: 'pt-BR', viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto('/sign-in?callbackUrl=%2Fscheduling');
  await page.getByLabel('E-mail').fill(DEMO_SCHEDULER.email);
  await page.getByLabel('Senha').fill(DEMO_SCHEDULER.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByTestId('signed-in-user')).toContainText(DEMO_SCHEDULER.name);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reserva de horários de exame');
  return page;
}

const calendar = (page: Page) => page.getByTestId('slot-calendar');
const freeSlots = (page: Page) => calendar(page).getByRole('button', { name: /^Livre: / });

/** Slots whose shown lines do not fit their box: each as its text and how many pixels it lacks. */
async function clippedSlots(page: Page): Promise<string[]> {
  return calendar(page)
    .getByRole('group')
    .filter({ has: page.locator('[data-slot]') })
    .evaluate((grid) =>
      [...grid.querySelectorAll<HTMLElement>('[data-slot]')].flatMap((slot) => {
        const box = slot.getBoundingClientRect();
        const lines = [...slot.children].filter((line) => {
          const style = getComputedStyle(line);
          return style.display !== 'none' && style.clipPath === 'none' && style.position !== 'absolute';
        });
        const lacking = Math.max(0, ...lines.map((line) => line.getBoundingClientRect().bottom - box.bottom));
        return lacking > 0.5 ? [`${slot.innerText.replace(/\s+/g, ' ')} (${lacking.toFixed(1)} px)`] : [];
      }),
    );
}

for (const width of [1280, 390]) {
  test(`at ${width} px the calendar opens on a day with slots, agenda 103's 20-minute slots show both lines, and a held one reads its date before its expiry`, async ({
    browser,
  }) => {
    const page = await schedulingPage(browser, width);
    // The day of the soonest free slot: the demo's first day, which has slots.
    await expect(freeSlots(page).first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath(`opening-${width}.png`), fullPage: true });

    await calendar(page).getByLabel('Agenda (cdAgenda)').selectOption('103');
    const column = calendar(page).getByRole('list', { name: 'Agenda 103', exact: true });
    await expect(column.getByRole('button', { name: /^Livre: 07:20 de .*, agenda 103, 20 min/ })).toBeVisible();
    if (width === 1280) {
      // Wide enough for each slot's second line: its duration, or its state in words.
      await expect(column.getByRole('button', { name: /^Livre: 07:20 / })).toContainText('20 min');
    }
    const heldItem = column.getByRole('listitem').filter({ hasText: `(horário ${held.nrSeqAgenda})` });
    await expect(heldItem).toHaveAttribute('data-state', 'reservado');
    // The slot's own time and date, then its state, and the hold's expiry as a date and time of its own.
    await expect(heldItem).toContainText(
      new RegExp(
        `Reservado: 07:00 de \\d\\d/\\d\\d/\\d{4}, agenda 103, 20 min \\(horário ${held.nrSeqAgenda}\\); a reserva expira em \\d\\d/\\d\\d/\\d{4},? \\d\\d:\\d\\d$`,
      ),
    );
    expect(await clippedSlots(page), 'day view').toEqual([]);
    await calendar(page).screenshot({ path: test.info().outputPath(`agenda-103-day-${width}.png`) });

    await calendar(page).getByRole('button', { name: 'Semana', exact: true }).click();
    await expect(calendar(page).getByRole('button', { name: 'Semana', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(freeSlots(page).first()).toBeVisible();
    expect(await clippedSlots(page), 'week view').toEqual([]);
    await calendar(page).screenshot({ path: test.info().outputPath(`agenda-103-week-${width}.png`) });
    await expectNoSeriousA11yViolations(page);
    expect((await horizontalFit(page)).scrollWidth).toBe(width);
    await page.context().close();
  });
}

test('"Hoje" on the demo (its slots start tomorrow) says the day is empty and offers the next day with a free slot', async ({
  browser,
}) => {
  const page = await schedulingPage(browser, 1280);
  const period = calendar(page).getByRole('heading', { level: 3 });
  await expect(freeSlots(page).first()).toBeVisible();
  const opening = await period.textContent();
  await calendar(page).getByRole('button', { name: 'Hoje', exact: true }).click();
  await expect(calendar(page).getByText('Nenhum horário futuro neste dia.')).toBeVisible();
  await expect(period).not.toHaveText(opening!);
  const next = calendar(page).getByRole('button', { name: /^Ir ao próximo dia com horário livre \(.+\)$/ });
  await expectNoSeriousA11yViolations(page);
  await next.click();
  await expect(freeSlots(page).first()).toBeVisible();
  await expect(period).toHaveText(opening!);
  await page.context().close();
});

test('on a phone the slot list shows each slot’s agenda and duration under its time', async ({ browser }) => {
  const page = await schedulingPage(browser, 390);
  await page.getByRole('button', { name: 'Lista' }).click();
  const table = page.getByTestId('free-slots');
  const first = table.getByRole('row').nth(1);
  await expect(first.getByRole('cell').first()).toContainText(/^\d\d\/\d\d\/\d{4},? \d\d:\d\dAgenda 10[1-3] · (20|30|40) min$/);
  await expect(first.getByText(/^Agenda 10[1-3] · (20|30|40) min$/)).toBeVisible();
  expect(await horizontalFit(page)).toEqual({ scrollWidth: 390, viewport: 390, cutOff: [] });
  await expectNoSeriousA11yViolations(page);
  await page.screenshot({ path: test.info().outputPath('list-390.png'), fullPage: true });

  // Wide screens have their own columns for both.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(table.getByRole('columnheader', { name: 'CD_AGENDA' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'NR_MIN_DURACAO' })).toBeVisible();
  await expect(first.getByText(/^Agenda 10[1-3] · (20|30|40) min$/)).toBeHidden();
  await page.context().close();
});

for (const width of [1280, 390]) {
  test(`at ${width} px picking a slot says so above the form, covering neither the form nor the recent reservations' "Liberar"`, async ({
    browser,
  }) => {
    const page = await schedulingPage(browser, width);
    const slot = freeSlots(page).first();
    const name = (await slot.getAttribute('aria-label'))!;
    const number = /\(horário (\d+)\)$/.exec(name)![1]!;
    await slot.click();
    const notice = page.getByRole('status').filter({ hasText: `Horário ${number} preenchido no formulário.` });
    await expect(notice).toBeVisible();
    await expect(page.getByLabel(/\(nrSeqAgenda\)/)).toHaveValue(number);

    // Said in the page's flow, not in a box fixed over it.
    expect(
      await notice.evaluate((element) => {
        for (let box: Element | null = element; box; box = box.parentElement) if (getComputedStyle(box).position === 'fixed') return true;
        return false;
      }),
    ).toBe(false);

    // Nothing lies over the field the pick moved to, even at the top of the window (where a phone's
    // toast was), nor over a recent reservation's "Liberar" at its bottom (where a wide screen's was).
    const uncovered = (locator: ReturnType<Page['locator']>, block: 'start' | 'end') =>
      locator.evaluate((element, at) => {
        element.scrollIntoView({ block: at });
        const box = element.getBoundingClientRect();
        const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return top === element || element.contains(top);
      }, block);
    const exam = page.getByLabel(/\(nrSeqProcInterno\)/);
    await expect(exam).toBeFocused();
    expect(await uncovered(exam, 'start')).toBe(true);
    // The API client's hold (beforeAll) is in the list: a table row on a wide screen, a card on a phone.
    const release = page.getByRole('button', { name: `Liberar a reserva do horário ${held.nrSeqAgenda}` }).filter({ visible: true });
    expect(await uncovered(release, 'end')).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`picked-${width}.png`) });
    await page.context().close();
  });
}
