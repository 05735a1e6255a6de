import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '../support/browser-test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, tokenFor } from '../support/api';
import { expectNoSeriousA11yViolations, horizontalFit, signIn } from '../support/console';
import { fillBeneficiary, outcome, pickSlot } from '../support/reservation-form';
import { PROCEDURES, seedDay, SLOT_MINUTES, STAFF, TENANT_A } from '../support/test-seed';

// Brazilian staff: the browser asks for pt-BR, as theirs do (the console's default language).
test.use({ locale: 'pt-BR' });

/**
 * "Reservas recentes" → Liberar (issue 47) and the waitlist it feeds (issue 48): a scheduler
 * reserves a slot, a partner's patient starts waiting for it, and the scheduler releases the
 * reservation in one click and a confirmation; the outcome shows CODIGO_P 1 like the form's, and the
 * waitlist page shows the slot offered to the waiting patient. Agenda 941, slots 0 and 2.
 */
async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

/** The seeded start of a slot of agenda 941 (São Paulo time), ± a minute: the patient's window. */
function windowAround(index: number) {
  const start = Date.parse(`${seedDay()}T07:00:00-03:00`) + index * SLOT_MINUTES * 60_000;
  return { de: new Date(start - 60_000).toISOString(), ate: new Date(start + 60_000).toISOString() };
}

/** A partner's patient waiting for exactly that slot: it stays in line while the slot is held. */
async function waitFor(request: APIRequestContext, index: number, nmUsuario: string) {
  const response = await request.post(apiPath(routes.addWaitlistEntry), {
    headers: bearer(await tokenFor(request, TENANT_A)),
    data: {
      nrSeqProcInterno: PROCEDURES.ultrassom,
      nrMinDuracao: SLOT_MINUTES,
      cdAgendas: [941],
      ...windowAround(index),
      cdPessoaFisica: 941_500 + index,
      cdConvenio: 12,
      cdCategoria: 1,
      cdPlano: 3,
      cdUsuarioConvenio: `0012345941${index}`,
      nmUsuario,
    },
  });
  expect(response.status()).toBe(201);
  expect((await response.json()).situacao).toBe('aguardando');
}

for (const [width, index] of [
  [1280, 0],
  [390, 2],
] as const) {
  test(`at ${width} px a recent reservation is released in one click and a confirmation, and its slot offered to the waitlist`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, STAFF.scheduling, '/scheduling');
    const slot = await pickSlot(page, 941, index);
    await fillBeneficiary(page, 941_000 + index);
    await page.getByRole('button', { name: 'Reservar horário' }).click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '0');
    const token = (await page.getByTestId('token-reserva-p').textContent())?.trim() ?? '';
    const name = `liberar-${width}`;
    await waitFor(request, index, name);

    // The release asks first; dismissing it changes nothing.
    const release = page.getByRole('button', { name: `Liberar a reserva do horário ${slot}` }).filter({ visible: true });
    page.once('dialog', (dialog) => void dialog.dismiss());
    await release.click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '0');

    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await release.click();
    await expect(outcome(page)).toHaveAttribute('data-codigo', '1');
    expect(asked).toContain(token);
    expect(asked).toContain(String(slot));
    await expect(outcome(page)).toContainText('HTTP 200');
    await expect(outcome(page)).toContainText('CODIGO_P 1 — Reserva cancelada — horário liberado');
    // Nothing to type again: the form was not used for it.
    await expect(page.getByRole('status').filter({ hasText: 'preencha cdPessoaFisica' })).toHaveCount(0);
    const listed = page.locator(`[data-token="${token}"]`).filter({ visible: true });
    await expect(listed).toContainText('liberada');
    await expect(release).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    expect((await horizontalFit(page)).cutOff).toEqual([]);
    await shot(page, `recent-release-${width}`);

    // The waitlist: the freed slot went to the patient waiting for it, with a deadline.
    await page.goto('/scheduling/lista-espera');
    const offer = page
      .getByRole('region', { name: `Exame ${PROCEDURES.ultrassom}` })
      .getByRole('list', { name: /^Ofertas em aberto/ })
      .getByRole('listitem')
      .filter({ hasText: name });
    await expect(async () => {
      await page.reload();
      await expect(offer).toContainText(`Horário ${slot} (agenda 941)`, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expect(offer).toContainText('ofertada');
    await expect(offer).toContainText(/Prazo: \d{2}\/\d{2}\/\d{4}/);
    await expectNoSeriousA11yViolations(page);
    expect((await horizontalFit(page)).cutOff).toEqual([]);
    await shot(page, `recent-release-${width}-offered`);
  });
}
