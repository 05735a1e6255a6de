import type { Page, Route } from '@playwright/test';
import { expect, test } from '../support/browser-test';
import { bearer, reservationBody, RESERVE_PATH, tokenFor } from '../support/api';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { expireHold } from '../support/server-db';
import { field, fillBeneficiary, outcome, pickSlot, showList } from '../support/reservation-form';
import { PROCEDURES, seedDay, SLOT_MINUTES, STAFF, slotOf } from '../support/test-seed';

// Brazilian staff: the browser asks for pt-BR, as theirs do (the console's default language).
test.use({ locale: 'pt-BR' });

/** State-changing specs here use agendas 920–939 only (the API specs use the others). */

const pickFirstSlot = (page: Page, cdAgenda: number) => pickSlot(page, cdAgenda);

test.describe('slot reservation page', () => {
  test('reserve (0) with token, same slot again (2), release (1), release again (4)', async ({ page }) => {
    await signIn(page, STAFF.scheduling, '/scheduling');
    const slot = await pickFirstSlot(page, 920);
    await fillBeneficiary(page, 920001);
    // Listings asked for after the reservation never answer here: the slot must leave the list
    // from the reservation's own answer.
    const holdListings = (route: Route) => (route.request().method() === 'GET' ? undefined : route.continue());
    await page.route(/slots-livres\?/, holdListings);
    await page.getByRole('button', { name: 'Reservar horário' }).click();

    await expect(outcome(page)).toHaveAttribute('data-codigo', '0');
    await expect(page.getByRole('button', { name: new RegExp(`^Usar horário ${slot} `) })).toHaveCount(0);
    await page.unroute(/slots-livres\?/, holdListings);
    await expect(outcome(page)).toContainText('HTTP 200');
    await expect(outcome(page)).toContainText('CODIGO_P 0 — Horário reservado');
    await expect(page.getByTestId('ie-reservado-p')).toContainText('S');
    const token = (await page.getByTestId('token-reserva-p').textContent())?.trim() ?? '';
    expect(token).toMatch(/^[A-Z0-9]{32}$/);
    await expect(page.getByRole('button', { name: 'Copiar token' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The same slot for another beneficiary: no longer available.
    await field(page, 'cdPessoaFisica').fill('920002');
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '2');
    await expect(outcome(page)).toContainText('HTTP 409');
    await expect(outcome(page)).toContainText('Horário não está mais disponível');

    // The recent list shows the reservation as active.
    const row = page.getByTestId('recent-reservations').locator(`tr[data-token="${token}"]`);
    await expect(row).toContainText('ativa');
    await expect(row).toContainText(String(slot));

    // Release from the recent list: one click and a confirmation, the service keeps the beneficiary.
    page.once('dialog', (dialog) => void dialog.accept());
    await row.getByRole('button', { name: `Liberar a reserva do horário ${slot}` }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '1');
    await expect(outcome(page)).toContainText('HTTP 200');
    await expect(outcome(page)).toContainText('Reserva cancelada — horário liberado');
    await expect(page.getByTestId('token-reserva-p')).toHaveText('(vazio)');
    await expect(row).toContainText('liberada');

    // The same release again, sent from the form: nothing left to release.
    await field(page, 'ieOpcao').selectOption('CR');
    await field(page, 'tokenReservaCanc').fill(token);
    await page.getByRole('button', { name: 'Liberar reserva' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '4');
    await expect(outcome(page)).toContainText('HTTP 409');
    await expect(outcome(page)).toContainText('Não foi possível cancelar a reserva');
  });

  test('one click prepares the release of the reservation just made', async ({ page }) => {
    await signIn(page, STAFF.admin, '/scheduling');
    await pickFirstSlot(page, 921);
    await fillBeneficiary(page, 921001);
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '0');
    const token = (await page.getByTestId('token-reserva-p').textContent())?.trim();
    await page.getByRole('button', { name: 'Preparar liberação desta reserva' }).click();
    await expect(field(page, 'tokenReservaCanc')).toHaveValue(token ?? 'missing');
    await page.getByRole('button', { name: 'Liberar reserva' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '1');
  });

  test('the console shows when a hold expires, and an expired hold as such, without a release button', async ({ page }) => {
    await signIn(page, STAFF.scheduling, '/scheduling');
    await pickFirstSlot(page, 939);
    await fillBeneficiary(page, 939001);
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '0');
    const token = (await page.getByTestId('token-reserva-p').textContent())?.trim() ?? '';
    // RESERVATION_HOLD_MINUTES is 30 by default: the outcome and the list say until when.
    await expect(page.getByTestId('outcome-hold-expires')).toContainText(/Reserva mantida até \d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}/);
    const row = page.getByTestId('recent-reservations').locator(`tr[data-token="${token}"]`);
    await expect(row.getByTestId('hold-expires')).toContainText(/^expira \d{2}\/\d{2}\/\d{4}/);

    await expireHold(token);
    await page.getByRole('button', { name: 'Atualizar' }).click();
    await expect(row).toContainText('expirada');
    await expect(row.getByTestId('hold-expires')).toContainText(/^expirou /);
    await expect(row.getByRole('button', { name: /Liberar a reserva/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('slot not found (3), already booked (5) and a server-side 400 land distinctly', async ({ page }) => {
    await signIn(page, STAFF.scheduling, '/scheduling');
    await fillBeneficiary(page, 922001);
    await field(page, 'nrMinDuracao').fill('30');
    await field(page, 'nrSeqAgenda').fill('987654321');
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '3');
    await expect(outcome(page)).toContainText('HTTP 404');
    await expect(outcome(page)).toContainText('Horário não encontrado');

    await field(page, 'nrSeqAgenda').fill(String(slotOf(922, 0)));
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '0');
    await field(page, 'nrSeqAgenda').fill(String(slotOf(922, 4)));
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '5');
    await expect(outcome(page)).toContainText('Exame já reservado para o beneficiário');

    // The listing says this exam needs a side: the form asks for it before sending anything.
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/reservar')) posted++;
    });
    await field(page, 'nrSeqProcInterno').selectOption(String(PROCEDURES.ressonanciaJoelho));
    await expect(page.getByLabel(/\(ieLado\) obrigatório/)).toBeVisible();
    await field(page, 'nrSeqAgenda').fill(String(slotOf(923, 0)));
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-kind', 'blocked');
    await expect(outcome(page)).not.toContainText('CODIGO_P');
    await expect(field(page, 'ieLado')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#field-ieLado-error')).toHaveText('Este exame exige lateralidade: informe E, D ou A.');
    // One message about laterality, not the hint and the error saying the same thing.
    await expect(page.locator('#field-ieLado-description')).not.toHaveText('O exame escolhido exige lateralidade: escolha E, D ou A.');
    expect(posted).toBe(0);
    await field(page, 'ieLado').selectOption('D');
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '0');
  });

  test('bad input is explained field by field before anything is sent', async ({ page }) => {
    await signIn(page, STAFF.scheduling, '/scheduling');
    let posted = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/reservar')) posted++;
    });
    await field(page, 'nrSeqAgenda').fill('12.5');
    await field(page, 'cdPessoaFisica').fill('abc');
    await field(page, 'nmUsuario').fill(' console ');
    await page.getByRole('button', { name: 'Reservar horário' }).click();

    await expect(page.locator('#field-nrSeqAgenda-error')).toHaveText('Deve ser um número inteiro.');
    await expect(page.locator('#field-cdPessoaFisica-error')).toHaveText('Deve ser um número inteiro.');
    await expect(page.locator('#field-nmUsuario-error')).toHaveText('Não pode começar nem terminar com espaços.');
    await expect(page.locator('#field-cdConvenio-error')).toHaveText('Campo obrigatório.');
    await expectNoSeriousA11yViolations(page);

    // Fixed fields lose their message as you type; CR then needs its token.
    await fillBeneficiary(page, 924001);
    await field(page, 'nrSeqAgenda').fill(String(slotOf(924, 0)));
    await field(page, 'nrMinDuracao').fill('30');
    await field(page, 'nmUsuario').fill('console');
    await expect(page.locator('#field-nmUsuario-error')).toHaveCount(0);
    await field(page, 'ieOpcao').selectOption('CR');
    await page.getByRole('button', { name: 'Liberar reserva' }).click();
    await expect(page.locator('#field-tokenReservaCanc-error')).toHaveText(
      'Obrigatório quando ieOpcao = CR (informe o TOKEN_RESERVA_P da reserva).',
    );
    await field(page, 'tokenReservaCanc').fill('X'.repeat(33));
    await expect(page.locator('#field-tokenReservaCanc-error')).toHaveText('Deve ter no máximo 32 caracteres.');
    expect(posted).toBe(0);
    await expect(outcome(page)).toHaveAttribute('data-kind', 'blocked');
    await expect(outcome(page)).toContainText('A requisição não foi enviada');
  });
});

test.describe('choosing the exam, searching again, São Paulo times, failures', () => {
  test('the exam is chosen by name; its duration and laterality follow', async ({ page }) => {
    await signIn(page, STAFF.scheduling, '/scheduling');
    const exam = field(page, 'nrSeqProcInterno');
    await expect(exam.locator('option')).toHaveText([
      'Escolha o exame',
      `Raio-X — código ${PROCEDURES.raioX}`,
      `Ressonância de joelho — código ${PROCEDURES.ressonanciaJoelho}`,
      `Ultrassonografia — código ${PROCEDURES.ultrassom}`,
    ]);
    // An empty duration takes the exam's usual one, and follows a change of exam.
    await exam.selectOption({ label: `Raio-X — código ${PROCEDURES.raioX}` });
    await expect(field(page, 'nrMinDuracao')).toHaveValue('20');
    await exam.selectOption(String(PROCEDURES.ressonanciaJoelho));
    await expect(field(page, 'nrMinDuracao')).toHaveValue('40');
    await expect(page.getByLabel(/\(ieLado\) obrigatório/)).toBeVisible();
    await expect(page.locator('#field-ieLado-description')).toHaveText('O exame escolhido exige lateralidade: escolha E, D ou A.');

    // A picked slot sets the duration to fit the agenda; the exam's usual one is shown beside it.
    await pickFirstSlot(page, 925);
    await exam.selectOption(String(PROCEDURES.ressonanciaJoelho));
    await expect(field(page, 'nrMinDuracao')).toHaveValue(String(SLOT_MINUTES));
    await expect(page.locator('#field-nrMinDuracao-description')).toContainText('Duração habitual do exame escolhido: 40 min.');
    await exam.selectOption(String(PROCEDURES.ultrassom));
    await expect(page.getByLabel(/\(ieLado\) opcional/)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });

  test('without an exam listing (501) the code is typed, and the server still asks for the side', async ({ page }) => {
    await page.route('**/api/v1/agendamentos/procedimentos', (route) =>
      route.fulfill({
        status: 501,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'urn:integration-console:problem:not-implemented', title: 'Not Implemented', status: 501 }),
      }),
    );
    await signIn(page, STAFF.scheduling, '/scheduling');
    const exam = field(page, 'nrSeqProcInterno');
    await expect(exam).toHaveAttribute('inputmode', 'numeric');
    await expect(page.locator('#field-nrSeqProcInterno-description')).toContainText('não lista os exames');
    await exam.fill(String(PROCEDURES.ressonanciaJoelho));
    await field(page, 'cdPessoaFisica').fill('925001');
    await field(page, 'cdUsuarioConvenio').fill('0012345678901');
    await field(page, 'cdConvenio').fill('12');
    await field(page, 'cdCategoria').fill('1');
    await field(page, 'cdPlano').fill('3');
    await field(page, 'nrSeqAgenda').fill(String(slotOf(925, 6)));
    await field(page, 'nrMinDuracao').fill('30');
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-kind', 'validation');
    await expect(outcome(page)).toContainText('HTTP 400');
    await expect(page.locator('#field-ieLado-error')).toHaveText('Este exame exige lateralidade: informe E, D ou A.');
  });

  test('"Buscar horários" asks again with unchanged filters and shows slots taken meanwhile as gone', async ({ page, request }) => {
    await signIn(page, STAFF.scheduling, '/scheduling');
    await showList(page);
    let listings = 0;
    page.on('request', (req) => {
      if (req.method() === 'GET' && req.url().includes('/slots-livres?') && req.url().includes('cdAgenda=926')) listings++;
    });
    await page.getByLabel('Agenda (cdAgenda)').fill('926');
    await page.getByRole('button', { name: 'Buscar horários' }).click();
    const first = page.getByRole('button', { name: new RegExp(`^Usar horário ${slotOf(926, 0)} `) });
    await expect(first).toBeVisible();
    await expect.poll(() => listings).toBe(1);

    // Someone else takes the first slot; the same search again must show it gone.
    const taken = await request.post(RESERVE_PATH, {
      headers: bearer(await tokenFor(request)),
      data: reservationBody({ nrSeqAgenda: slotOf(926, 0), cdPessoaFisica: 926001 }),
    });
    expect(taken.status()).toBe(200);
    await page.getByRole('button', { name: 'Buscar horários' }).click();
    await expect.poll(() => listings).toBe(2);
    await expect(first).toHaveCount(0);
    await expect(page.getByRole('button', { name: new RegExp(`^Usar horário ${slotOf(926, 1)} `) })).toBeVisible();
  });

  test.describe('in a browser far from Brazil', () => {
    test.use({ timezoneId: 'Asia/Tokyo' });

    test('filters and slot times are São Paulo time, labelled', async ({ page }) => {
      await signIn(page, STAFF.scheduling, '/scheduling');
      await showList(page);
      await expect(page.getByLabel(/^Início \(de\) horário de Brasília/)).toBeVisible();
      // The seed's slots are two São Paulo days ahead, every 30 minutes from 07:00.
      const day = seedDay();
      await page.getByLabel(/^Início \(de\)/).fill(`${day}T07:30`);
      await page.getByLabel(/^Fim \(ate\)/).fill(`${day}T08:00`);
      await page.getByLabel('Agenda (cdAgenda)').fill('927');
      await page.getByRole('button', { name: 'Buscar horários' }).click();
      const rows = page.getByTestId('free-slots').locator('tbody tr');
      await expect(rows).toHaveCount(2);
      const [year, month, date] = day.split('-');
      await expect(rows.nth(0)).toContainText(`${date}/${month}/${year}, 07:30`);
      await expect(rows.nth(0)).toContainText(String(slotOf(927, 1)));
      await expect(rows.nth(1)).toContainText(`${date}/${month}/${year}, 08:00`);
      await expect(page.getByTestId('free-slots').locator('thead')).toContainText('horário de Brasília');
    });
  });

  test('a new attempt clears the previous outcome; a network failure says so in words', async ({ page }) => {
    await signIn(page, STAFF.scheduling, '/scheduling');
    await pickFirstSlot(page, 928);
    await fillBeneficiary(page, 928001);
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '0');

    // Blocked by the form's own checks: the earlier answer does not stay on screen.
    await field(page, 'cdPlano').fill('x');
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-kind', 'blocked');
    await expect(outcome(page)).not.toContainText('CODIGO_P 0');
    await field(page, 'cdPlano').fill('3');

    // In flight, then no answer at all.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/slots-livres/reservar', async (route) => {
      await held;
      await route.abort('internetdisconnected');
    });
    await field(page, 'nrSeqAgenda').fill(String(slotOf(928, 5)));
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-kind', 'pending');
    await expect(outcome(page)).toContainText('Enviando a requisição');
    release();
    await expect(outcome(page)).toHaveAttribute('data-kind', 'network');
    await expect(outcome(page)).toContainText('Sem conexão com o servidor');
    await expect(outcome(page)).not.toContainText('HTTP 0');
    await expectNoSeriousA11yViolations(page);

    await page.getByLabel('Idioma').selectOption('en');
    await page.getByRole('button', { name: 'Reserve slot' }).click();
    await expect(outcome(page)).toContainText('No connection to the server');
  });
});
