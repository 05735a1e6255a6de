import { describe, expect, it } from 'vitest';
import { slotReservationSchema } from '@/lib/scheduling/contract';
import { toFieldErrors } from './issues';
import { hasControlCharacters } from './text';
import { messagesFor } from '@/lib/i18n';

describe('control characters', () => {
  it('finds C0, DEL and C1 characters, and nothing else', () => {
    for (const value of ['a\u0000b', 'tab\there', 'line\nbreak', 'del\u007F', 'c1\u0085'])
      expect(hasControlCharacters(value), value).toBe(true);
    for (const value of ['ação', 'Ünïcödé 漢字', 'a b', '']) expect(hasControlCharacters(value), value).toBe(false);
  });

  it('are refused in the reservation’s text fields with 400 naming each field', () => {
    const body = {
      nrSeqAgenda: 1,
      nrSeqProcInterno: 1,
      nrMinDuracao: 30,
      ieOpcao: 'CR',
      tokenReservaCanc: 'AB\u0000CD',
      cdPessoaFisica: 1,
      cdConvenio: 1,
      cdCategoria: 1,
      cdPlano: 1,
      cdUsuarioConvenio: '00\u000012',
      nmUsuario: 'portal\u0000',
    };
    const result = slotReservationSchema.safeParse(body);
    expect(result.success).toBe(false);
    const errors = toFieldErrors(result.error!, body, messagesFor('en')).filter((error) => error.code === 'controlCharacters');
    expect(errors.map((error) => error.field).sort()).toEqual(['cdUsuarioConvenio', 'nmUsuario', 'tokenReservaCanc']);
    expect(errors[0]?.message).toMatch(/control characters/);
  });
});
