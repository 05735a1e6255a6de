import { describe, expect, it } from 'vitest';
import { reservationState, type RecentReservation } from './recent-reservations';
import { EMPTY_RESERVATION_FORM, releaseOf, releaseOfRecent, toReservationBody } from './reservation-form-values';

const listed: RecentReservation = {
  token: 'T5',
  em: '2026-11-22T15:00:00.000Z',
  ator: 'agenda@exemplo.com.br',
  estado: 'active',
  liberadaEm: null,
  expiraEm: null,
  nrSeqAgenda: 5,
  nrSeqProcInterno: 70001,
  nrMinDuracao: 30,
  ieLado: null,
  cdConvenio: 12,
  cdCategoria: 1,
  cdPlano: 3,
  nmUsuario: 'console',
  cdPessoaFisica: '••••001',
  cdUsuarioConvenio: '•••••••••8901',
  liberacaoDireta: false,
};

describe('recent reservations', () => {
  it('an unreleased hold past its expiry reads as expired; released and open-ended ones keep their state', () => {
    expect(reservationState('active', 2000, 1999)).toBe('active');
    expect(reservationState('active', 2000, 2000)).toBe('expired');
    expect(reservationState('active', null, 10 ** 13)).toBe('active');
    expect(reservationState('released', 2000, 5000)).toBe('released');
  });

  it('prepares a release from a listed reservation; patient identifiers only when this page sent them', () => {
    const blind = releaseOfRecent(listed);
    expect(blind).toMatchObject({
      ieOpcao: 'CR',
      tokenReservaCanc: 'T5',
      nrSeqAgenda: '5',
      cdPlano: '3',
      cdPessoaFisica: '',
      cdUsuarioConvenio: '',
    });
    const sent = { ...EMPTY_RESERVATION_FORM, nrSeqAgenda: '5', cdPessoaFisica: '1001', cdUsuarioConvenio: '0012345678901' };
    expect(releaseOfRecent(listed, sent)).toEqual(releaseOf(sent, 'T5'));
  });

  it('sends numbers as numbers, drops empty fields, and sends the token only for CR', () => {
    const values = { ...EMPTY_RESERVATION_FORM, nrSeqAgenda: '920001', cdConvenio: 'doze', tokenReservaCanc: 'ABC' };
    expect(toReservationBody(values)).toEqual({ nrSeqAgenda: 920001, cdConvenio: 'doze', ieOpcao: 'R', nmUsuario: 'console-integracao' });
    expect(toReservationBody({ ...values, ieOpcao: 'CR', ieLado: 'E' })).toMatchObject({
      ieOpcao: 'CR',
      tokenReservaCanc: 'ABC',
      ieLado: 'E',
    });
  });
});
