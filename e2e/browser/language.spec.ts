import { expect, test } from '../support/browser-test';
import { signIn } from '../support/console';
import { STAFF } from '../support/test-seed';

// Brazilian staff: the browser asks for pt-BR, as theirs do (the console's default language).
test.use({ locale: 'pt-BR' });

test('the language switch turns the console into English and back, and is remembered', async ({ page }) => {
  await signIn(page, STAFF.admin, '/scheduling');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  await page.getByLabel('Idioma').selectOption('en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Exam slot reservation');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Webhooks' })).toBeVisible();

  // Labels say what a field is, with its API name (the slot table's filters, the calendar's alternative).
  await page.getByRole('group', { name: 'Show slots as' }).getByRole('button', { name: 'List' }).click();
  await expect(page.getByLabel(/^From \(de\) Brasília time/)).toBeVisible();
  await expect(page.getByLabel(/^To \(ate\) Brasília time/)).toBeVisible();
  await expect(page.getByLabel(/^Patient \(cdPessoaFisica\) required/)).toBeVisible();

  // Client-side messages follow the switch…
  await page.getByLabel(/\(cdConvenio\)/).fill('x');
  await expect(page.locator('#field-cdConvenio-error')).toHaveText('Must be an integer.');
  // …and so does the exam's side rule, which the form knows from the exam listing.
  await page.getByLabel(/\(cdConvenio\)/).fill('12');
  await page.getByLabel(/\(nrSeqProcInterno\)/).selectOption({ label: 'Ressonância de joelho — code 70002' });
  const values: [string, string][] = [
    ['nrSeqAgenda', '930001'],
    ['nrMinDuracao', '30'],
    ['cdPessoaFisica', '930001'],
    ['cdUsuarioConvenio', '0012345678901'],
    ['cdCategoria', '1'],
    ['cdPlano', '3'],
  ];
  for (const [name, value] of values) {
    await page.getByLabel(new RegExp(`\\(${name}\\)`)).fill(value);
  }
  await page.getByRole('button', { name: 'Reserve slot' }).click();
  await expect(page.locator('#field-ieLado-error')).toHaveText('This exam requires laterality: send E, D or A.');

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Exam slot reservation');
  await page.getByLabel('Language').selectOption('pt-BR');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reserva de horários de exame');
});
