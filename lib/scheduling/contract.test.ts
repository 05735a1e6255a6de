import { describe, expect, it } from 'vitest';
import { toFieldErrors } from '@/lib/validation/issues';
import { slotReservationSchema } from './contract';
import { messagesFor } from '@/lib/i18n';

const valid = {
  nrSeqAgenda: 1,
  nrSeqProcInterno: 2,
  nrMinDuracao: 30,
  ieOpcao: 'R',
  cdPessoaFisica: 3,
  cdConvenio: 0,
  cdCategoria: 1,
  cdPlano: 1,
  cdUsuarioConvenio: '0012',
  nmUsuario: 'portal',
};

/** Fields named by the errors of a body, in pt-BR. */
function badFields(body: unknown): string[] {
  const result = slotReservationSchema.safeParse(body);
  return result.success ? [] : toFieldErrors(result.error, body, messagesFor('pt-BR')).map((error) => error.field);
}

describe('slotReservationSchema (§2.2)', () => {
  it('accepts a reservation and a release as the contract writes them', () => {
    expect(badFields(valid)).toEqual([]);
    expect(badFields({ ...valid, ieOpcao: 'CR', tokenReservaCanc: 'A'.repeat(32), ieLado: 'A' })).toEqual([]);
  });

  it.each([
    ['a long sent as a string', { nrSeqAgenda: '1' }, 'nrSeqAgenda'],
    ['a fraction', { cdPessoaFisica: 1.5 }, 'cdPessoaFisica'],
    ['a negative code', { cdConvenio: -1 }, 'cdConvenio'],
    ['a number beyond 2^53', { cdPlano: 2 ** 60 }, 'cdPlano'],
    ['ieOpcao outside R/CR', { ieOpcao: 'X' }, 'ieOpcao'],
    ['ieLado outside E/D/A', { ieLado: 'L' }, 'ieLado'],
    ['a zero duration', { nrMinDuracao: 0 }, 'nrMinDuracao'],
    ['nmUsuario over 30 characters', { nmUsuario: 'x'.repeat(31) }, 'nmUsuario'],
    ['nmUsuario with a leading space', { nmUsuario: ' portal' }, 'nmUsuario'],
    ['nmUsuario with a trailing space', { nmUsuario: 'portal ' }, 'nmUsuario'],
    ['an empty card code', { cdUsuarioConvenio: '' }, 'cdUsuarioConvenio'],
    ['a token sent with R', { tokenReservaCanc: 'ABC' }, 'tokenReservaCanc'],
    ['a release without a token', { ieOpcao: 'CR' }, 'tokenReservaCanc'],
    ['a token over 32 characters', { ieOpcao: 'CR', tokenReservaCanc: 'A'.repeat(33) }, 'tokenReservaCanc'],
    ['an unknown field', { extra: true }, 'extra'],
  ])('refuses %s, naming the field', (_, change, field) => {
    expect(badFields({ ...valid, ...change })).toEqual([field]);
  });

  it('names the token rule together with other errors', () => {
    expect(badFields({ ...valid, ieOpcao: 'CR', nrSeqAgenda: 'x' }).sort()).toEqual(['nrSeqAgenda', 'tokenReservaCanc']);
  });

  it('names every missing required field', () => {
    expect(badFields({}).sort()).toEqual(
      [
        'cdCategoria',
        'cdConvenio',
        'cdPessoaFisica',
        'cdPlano',
        'cdUsuarioConvenio',
        'ieOpcao',
        'nmUsuario',
        'nrMinDuracao',
        'nrSeqAgenda',
        'nrSeqProcInterno',
      ].sort(),
    );
  });
});
