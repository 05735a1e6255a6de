import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn } from '../support/console';
import { PROCEDURES, STAFF, slotOf } from '../support/test-seed';

// Brazilian staff: the browser asks for pt-BR, as theirs do (the console's default language).
test.use({ locale: 'pt-BR' });

/** State-changing specs here use agendas 920–939 only (the API specs use the others). */

const field = (page: Page, name: string) => page.getByLabel(new RegExp(`^${name}\\b`));

async function fillBeneficiary(page: Page, cdPessoaFisica: number) {
  await field(page, 'nrSeqProcInterno').fill(String(PROCEDURES.ultrassom));
  await field(page, 'cdPessoaFisica').fill(String(cdPessoaFisica));
  await field(page, 'cdUsuarioConvenio').fill('0012345678901');
  await field(page, 'cdConvenio').fill('12');
  await field(page, 'cdCategoria').fill('1');
  await field(page, 'cdPlano').fill('3');
}

async function pickFirstSlot(page: Page, cdAgenda: number) {
  await page.getByLabel('cdAgenda').fill(String(cdAgenda));
  await page.getByRole('button', { name: 'Buscar horários' }).click();
  const first = slotOf(cdAgenda, 0);
  await page.getByRole('button', { name: new RegExp(`^Usar horário ${first} `) }).click();
  await expect(field(page, 'nrSeqAgenda')).toHaveValue(String(first));
  await expect(field(page, 'nrMinDuracao')).toHaveValue('30');
  return first;
}

const outcome = (page: Page) => page.getByTestId('outcome');

test.describe('slot reservation page', () => {
  test('reserve (0) with token, same slot again (2), release (1), release again (4)', async ({ page }) => {
    await signIn(page, STAFF.scheduling, '/scheduling');
    const slot = await pickFirstSlot(page, 920);
    await fillBeneficiary(page, 920001);
    await page.getByRole('button', { name: 'Reservar horário' }).click();

    await expect(outcome(page)).toHaveAttribute('data-codigo', '0');
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

    // Back to the first result is not possible, so release from the recent list: this page sent
    // that reservation, so it knows the beneficiary and fills everything.
    await row.getByRole('button', { name: `Liberar a reserva do horário ${slot}` }).click();
    await expect(field(page, 'ieOpcao')).toHaveValue('CR');
    await expect(field(page, 'tokenReservaCanc')).toHaveValue(token);
    await expect(field(page, 'cdPessoaFisica')).toHaveValue('920001');
    await page.getByRole('button', { name: 'Liberar reserva' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '1');
    await expect(outcome(page)).toContainText('HTTP 200');
    await expect(outcome(page)).toContainText('Reserva cancelada — horário liberado');
    await expect(page.getByTestId('token-reserva-p')).toHaveText('(vazio)');
    await expect(row).toContainText('liberada');

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

    // Only the server knows this exam needs a side: its 400 lands on the ieLado field.
    await field(page, 'nrSeqProcInterno').fill(String(PROCEDURES.ressonanciaJoelho));
    await field(page, 'nrSeqAgenda').fill(String(slotOf(923, 0)));
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-kind', 'validation');
    await expect(outcome(page)).toContainText('HTTP 400');
    await expect(field(page, 'ieLado')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#field-ieLado-error')).toHaveText('Este exame exige lateralidade: informe E, D ou A.');
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
    await expect(outcome(page)).toContainText('Envie a requisição');
  });
});
