import { describe, expect, it } from 'vitest';
import { toFieldErrors } from '@/lib/validation/issues';
import { slotQuerySchema, slotReservationSchema } from './contract';
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

describe('slotQuerySchema (the calendar’s window)', () => {
  const errors = (query: Record<string, string>) => {
    const result = slotQuerySchema.safeParse(query);
    return result.success
      ? []
      : toFieldErrors(result.error, query, messagesFor('pt-BR')).map(({ field, message }) => `${field}: ${message}`);
  };

  it('takes a window of up to seven days, with de and ate required', () => {
    expect(errors({ de: '2026-11-23T00:00:00-03:00', ate: '2026-11-29T23:59:59.999-03:00' })).toEqual([]);
    expect(slotQuerySchema.parse({ de: '2026-11-23T00:00:00-03:00', ate: '2026-11-23T23:59:00-03:00', cdAgenda: '7' })).toEqual({
      de: '2026-11-23T00:00:00-03:00',
      ate: '2026-11-23T23:59:00-03:00',
      cdAgenda: 7,
      limite: 1000,
    });
    expect(errors({})).toEqual(['de: Campo obrigatório.', 'ate: Campo obrigatório.']);
  });

  it('refuses a reversed window and one longer than a week, naming ate', () => {
    expect(errors({ de: '2026-11-23T10:00:00-03:00', ate: '2026-11-23T09:00:00-03:00' })).toEqual([
      'ate: Deve ser igual ou posterior a de.',
    ]);
    expect(errors({ de: '2026-11-23T00:00:00-03:00', ate: '2026-11-30T00:00:01-03:00' })).toEqual([
      'ate: O intervalo entre de e ate pode ter no máximo 7 dias.',
    ]);
  });
});
