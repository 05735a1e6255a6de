import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/browser-test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, reservationBody, RESERVE_PATH, tokenFor } from '../support/api';
import { expectNoSeriousA11yViolations, horizontalFit, signIn } from '../support/console';
import { PROCEDURES, seedDay, slotOf, STAFF, TENANT_A, TENANT_B } from '../support/test-seed';

// Brazilian staff: the browser asks for pt-BR, as theirs do (the console's default language).
test.use({ locale: 'pt-BR' });
test.describe.configure({ mode: 'serial' });

/**
 * The console's waitlist (issue 48): a scheduler puts a patient on the list, a slot is released and
 * the page shows the offer made to them with its deadline; entries move in line with a reason. At
 * 1280 and 390 px, axe-clean. Agenda 939 is this spec's: one slot per width (slots 4 and 6).
 */
const field = (page: Page, name: string) => page.getByLabel(name, { exact: true });

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** An entry through the API that no slot suits (agenda 999's only slot is past): it stays in line. */
async function addWaiting(request: APIRequestContext, client: typeof TENANT_A, cdPessoaFisica: number, nmUsuario: string) {
  const response = await request.post(apiPath(routes.addWaitlistEntry), {
    headers: bearer(await tokenFor(request, client)),
    data: {
      nrSeqProcInterno: PROCEDURES.raioX,
      nrMinDuracao: 20,
      cdAgendas: [999],
      de: new Date(Date.now() + 86_400_000).toISOString(),
      ate: new Date(Date.now() + 5 * 86_400_000).toISOString(),
      cdPessoaFisica,
      cdConvenio: 12,
      cdCategoria: 1,
      cdPlano: 3,
      cdUsuarioConvenio: `0012345${cdPessoaFisica}`,
      nmUsuario,
    },
  });
  expect(response.status()).toBe(201);
}

for (const [width, index] of [
  [1280, 4],
  [390, 6],
] as const) {
  test(`at ${width} px: a scheduler puts a patient on the list, a released slot is offered to them, and an entry moves in line with a reason`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    // A partner holds the slot the patient is waiting for.
    const slot = slotOf(939, index);
    const partner = bearer(await tokenFor(request));
    const held = await request.post(RESERVE_PATH, {
      headers: partner,
      data: reservationBody({ nrSeqAgenda: slot, cdPessoaFisica: 939_000 + index }),
    });
    const token = (await held.json()).TOKEN_RESERVA_P as string;
    expect(token).toMatch(/\S/);

    await signIn(page, STAFF.scheduling, '/scheduling/lista-espera');
    await expect(page.getByRole('heading', { level: 1, name: 'Lista de espera de exames' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    expect((await horizontalFit(page)).cutOff).toEqual([]);

    // The patient waits for that slot's time on agenda 939 (São Paulo time, as the form says).
    const time = `${String(7 + Math.floor((index * 30) / 60)).padStart(2, '0')}:${index % 2 === 0 ? '00' : '30'}`;
    const [hh, mm] = time.split(':').map(Number) as [number, number];
    const minute = (delta: number) => {
      const total = hh * 60 + mm + delta;
      return `${seedDay()}T${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
    };
    const name = `espera-${width}`;
    await field(page, 'usuarioId').fill(TENANT_A.usuarioId);
    await field(page, 'nrSeqProcInterno').fill(String(PROCEDURES.ultrassom));
    await field(page, 'cdAgendas').fill('939');
    await field(page, 'de').fill(minute(-1));
    await field(page, 'ate').fill(minute(1));
    await field(page, 'cdPessoaFisica').fill(String(939_100 + index));
    await field(page, 'cdConvenio').fill('12');
    await field(page, 'cdCategoria').fill('1');
    await field(page, 'cdPlano').fill('3');
    await field(page, 'cdUsuarioConvenio').fill(`0012345939${index}`);
    await field(page, 'nmUsuario').fill(name);
    await page.getByRole('button', { name: 'Incluir na lista' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Paciente incluído na lista de espera.' })).toBeVisible();
    const exam = page.getByRole('region', { name: `Exame ${PROCEDURES.ultrassom}` });
    const inLine = exam.getByRole('list', { name: /^Na fila/ });
    await expect(inLine.getByRole('listitem').filter({ hasText: name })).toBeVisible();
    // The patient's identifiers are shown masked.
    await expect(inLine).not.toContainText(String(939_100 + index));
    await shot(page, `waitlist-${width}-waiting`);

    // The partner releases its hold: the page shows the offer made to the patient, with its deadline.
    const released = await request.post(RESERVE_PATH, {
      headers: partner,
      data: reservationBody({ nrSeqAgenda: slot, cdPessoaFisica: 939_000 + index, ieOpcao: 'CR', tokenReservaCanc: token }),
    });
    expect((await released.json()).CODIGO_P).toBe('1');
    const offer = exam
      .getByRole('list', { name: /^Ofertas em aberto/ })
      .getByRole('listitem')
      .filter({ hasText: name });
    await expect(offer).toContainText(`Horário ${slot} (agenda 939)`, { timeout: 15_000 });
    await expect(offer).toContainText('ofertada');
    await expect(offer).toContainText(/Prazo: \d{2}\/\d{2}\/\d{4}/);
    await expectNoSeriousA11yViolations(page);
    expect((await horizontalFit(page)).cutOff).toEqual([]);
    await shot(page, `waitlist-${width}-offered`);

    // Two patients wait for an X-ray; the scheduler moves the second to the front, with a reason.
    const first = `raiox-1-${width}`;
    const second = `raiox-2-${width}`;
    await addWaiting(request, TENANT_A, 939_200 + index, first);
    await addWaiting(request, TENANT_B, 939_300 + index, second);
    const xray = page.getByRole('region', { name: `Exame ${PROCEDURES.raioX}` }).getByRole('list', { name: /^Na fila/ });
    await expect(xray.getByRole('listitem').filter({ hasText: second })).toBeVisible({ timeout: 10_000 });
    const before = await xray.getByRole('listitem').allTextContents();
    expect(before.findIndex((text) => text.includes(first))).toBeLessThan(before.findIndex((text) => text.includes(second)));
    await xray.getByRole('button', { name: `Mover ${second} na fila` }).click();
    const move = page.getByRole('form', { name: `Mover ${second} na fila` });
    await move.getByLabel('Nova posição').fill('1');
    await move.getByLabel('Motivo', { exact: false }).fill('Urgência clínica');
    await expectNoSeriousA11yViolations(page);
    await move.getByRole('button', { name: 'Mover na fila' }).click();
    await expect(xray.getByRole('listitem').first()).toContainText(second);
    await shot(page, `waitlist-${width}-moved`);
  });
}
