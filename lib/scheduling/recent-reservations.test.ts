import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@/lib/audit/audit-trail';
import { recentReservations } from './recent-reservations';
import { EMPTY_RESERVATION_FORM, releaseOf, releaseOfRecent, toReservationBody } from './reservation-form-values';

let clock = 0;
function entry(action: AuditEntry['action'], after: Record<string, unknown>): AuditEntry {
  clock += 1000;
  return {
    id: String(clock),
    at: new Date(clock).toISOString(),
    actorKind: 'staff',
    actorId: 'agenda@exemplo.com.br',
    action,
    target: `slot:${String(after.nrSeqAgenda)}`,
    outcome: `CODIGO_P=${String(after.CODIGO_P)}`,
    httpStatus: 200,
    before: null,
    after,
  };
}
const reserve = (slot: number, codigo: string, token = '') =>
  entry('slot.reserve', {
    ieOpcao: 'R',
    nrSeqAgenda: slot,
    nrSeqProcInterno: 70001,
    nrMinDuracao: 30,
    ieLado: null,
    cdPessoaFisica: '••••001',
    cdUsuarioConvenio: '•••••••••8901',
    cdConvenio: 12,
    cdCategoria: 1,
    cdPlano: 3,
    nmUsuario: 'console',
    tokenReservaCanc: null,
    IE_RESERVADO_P: codigo === '0' ? 'S' : 'N',
    TOKEN_RESERVA_P: token,
    CODIGO_P: codigo,
    MENSAGEM_P: '',
  });
const release = (slot: number, token: string, codigo: string) =>
  entry('slot.release', {
    ieOpcao: 'CR',
    nrSeqAgenda: slot,
    tokenReservaCanc: token,
    CODIGO_P: codigo,
    TOKEN_RESERVA_P: '',
    IE_RESERVADO_P: 'N',
  });

describe('recent reservations from the audit trail', () => {
  it('lists successful reservations newest first, released only after a successful release', () => {
    const trail = [
      reserve(1, '0', 'T1'),
      reserve(1, '2'),
      reserve(2, '0', 'T2'),
      release(2, 'T2', '1'),
      release(2, 'T2', '4'),
      release(3, 'T3', '4'),
      reserve(3, '0', 'T3'),
    ].reverse();
    const recent = recentReservations(trail, 10);
    expect(recent.map((r) => [r.token, r.state])).toEqual([
      ['T3', 'active'],
      ['T2', 'released'],
      ['T1', 'active'],
    ]);
    expect(recent[1]).toMatchObject({ nrSeqAgenda: 2, cdPessoaFisica: '••••001', cdPlano: 3 });
    expect(recentReservations(trail, 2)).toHaveLength(2);
  });

  it('prepares a release from a listed reservation; patient identifiers only when this page sent them', () => {
    const [listed] = recentReservations([reserve(5, '0', 'T5')], 1);
    const blind = releaseOfRecent(listed!);
    expect(blind).toMatchObject({
      ieOpcao: 'CR',
      tokenReservaCanc: 'T5',
      nrSeqAgenda: '5',
      cdPlano: '3',
      cdPessoaFisica: '',
      cdUsuarioConvenio: '',
    });
    const sent = { ...EMPTY_RESERVATION_FORM, nrSeqAgenda: '5', cdPessoaFisica: '1001', cdUsuarioConvenio: '0012345678901' };
    expect(releaseOfRecent(listed!, sent)).toEqual(releaseOf(sent, 'T5'));
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
