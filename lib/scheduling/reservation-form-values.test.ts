import { describe, expect, it } from 'vitest';
import type { Procedure } from './contract';
import { chosenProcedure, durationForExam, EMPTY_RESERVATION_FORM, missingRequiredSide } from './reservation-form-values';

const knee: Procedure = {
  NR_SEQ_PROC_INTERNO: 70002,
  DS_PROCEDIMENTO: 'Ressonância de joelho',
  NR_MIN_DURACAO: 40,
  IE_LADO_OBRIGATORIO: 'S',
};
const xRay: Procedure = { NR_SEQ_PROC_INTERNO: 70003, DS_PROCEDIMENTO: 'Raio-X', NR_MIN_DURACAO: 20, IE_LADO_OBRIGATORIO: 'N' };
const listing = [knee, xRay];

describe('exam choice in the reservation form', () => {
  it('finds the listed exam by its code', () => {
    expect(chosenProcedure({ nrSeqProcInterno: ' 70003 ' }, listing)).toBe(xRay);
    expect(chosenProcedure({ nrSeqProcInterno: '' }, listing)).toBeUndefined();
    expect(chosenProcedure({ nrSeqProcInterno: '99' }, listing)).toBeUndefined();
  });

  it('asks for ieLado only when reserving an exam that requires it', () => {
    const form = { ...EMPTY_RESERVATION_FORM, nrSeqProcInterno: '70002' };
    expect(missingRequiredSide(form, listing)).toBe(true);
    expect(missingRequiredSide({ ...form, ieLado: 'D' }, listing)).toBe(false);
    expect(missingRequiredSide({ ...form, ieOpcao: 'CR' }, listing)).toBe(false);
    expect(missingRequiredSide({ ...form, nrSeqProcInterno: '70003' }, listing)).toBe(false);
    // Unlisted code or no listing at all: only the server can tell.
    expect(missingRequiredSide({ ...form, nrSeqProcInterno: '12' }, listing)).toBe(false);
    expect(missingRequiredSide(form, [])).toBe(false);
  });

  it('fills the usual duration unless a slot or the operator set one', () => {
    expect(durationForExam('', undefined, knee)).toBe('40');
    expect(durationForExam('20', { source: 'exam', value: '20' }, knee)).toBe('40');
    expect(durationForExam('30', { source: 'slot', value: '30' }, knee)).toBeUndefined();
    expect(durationForExam('25', { source: 'exam', value: '20' }, knee)).toBeUndefined();
    expect(durationForExam('25', undefined, knee)).toBeUndefined();
  });
});
