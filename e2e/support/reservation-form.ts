import { expect, type Page } from '@playwright/test';
import { PROCEDURES, slotOf } from './test-seed';

/** The console's reservation page, as the scheduling browser specs drive it. */

/** Fields are labelled "Paciente (cdPessoaFisica)": found by the API name in parentheses. */
export const field = (page: Page, name: string) => page.getByLabel(new RegExp(`\\(${name}\\)`));

export const outcome = (page: Page) => page.getByTestId('outcome');

export async function fillBeneficiary(page: Page, cdPessoaFisica: number) {
  await field(page, 'nrSeqProcInterno').selectOption(String(PROCEDURES.ultrassom));
  await field(page, 'cdPessoaFisica').fill(String(cdPessoaFisica));
  await field(page, 'cdUsuarioConvenio').fill('0012345678901');
  await field(page, 'cdConvenio').fill('12');
  await field(page, 'cdCategoria').fill('1');
  await field(page, 'cdPlano').fill('3');
}

/** The searchable table, the calendar's alternative (scheduling-calendar.spec.ts covers the calendar). */
export async function showList(page: Page) {
  // Until the page has hydrated the switch is disabled and says why (first-tap.spec.ts); the click waits for it.
  await page.getByRole('group', { name: 'Exibir os horários como' }).getByRole('button', { name: 'Lista' }).click();
  await expect(page.getByRole('button', { name: 'Buscar horários' })).toBeVisible();
}

/** Fills the form with the `index`-th slot of an agenda from the list; the first slot unless told. */
export async function pickSlot(page: Page, cdAgenda: number, index = 0) {
  await showList(page);
  await page.getByLabel('cdAgenda').fill(String(cdAgenda));
  await page.getByRole('button', { name: 'Buscar horários' }).click();
  const slot = slotOf(cdAgenda, index);
  await page.getByRole('button', { name: new RegExp(`^Usar horário ${slot} `) }).click();
  await expect(field(page, 'nrSeqAgenda')).toHaveValue(String(slot));
  await expect(field(page, 'nrMinDuracao')).toHaveValue('30');
  // Keyboard users land on the form, not on the next "Usar" button.
  await expect(field(page, 'nrSeqProcInterno')).toBeFocused();
  return slot;
}
