import { describe, expect, it } from 'vitest';
import { CODIGO_P_STATUS, CODIGOS_P, slotReservationResponseSchema } from './contract';
import { outcomeFrom } from './outcome';

const json = 'application/json; charset=utf-8';
const problemJson = 'application/problem+json';
const body = (codigo: string, reserved = false, token = '') => ({
  IE_RESERVADO_P: reserved ? 'S' : 'N',
  TOKEN_RESERVA_P: token,
  CODIGO_P: codigo,
  MENSAGEM_P: 'mensagem do procedimento',
});

describe('reservation outcome view', () => {
  it('shows every CODIGO_P of §7.2 as its own outcome with its HTTP status, in the tone its status calls for', () => {
    // The rule, not the table: a conflict (409) is a warning the scheduler can act on, a failure
    // (404, 500) is danger; of the two successes, a reservation is success and a release is news.
    const toneOfSuccess = { '0': 'success', '1': 'info' } as Record<string, string>;
    for (const codigo of CODIGOS_P) {
      const status = CODIGO_P_STATUS[codigo];
      const view = outcomeFrom(status, json, body(codigo, codigo === '0', codigo === '0' ? 'ABC' : ''), slotReservationResponseSchema);
      const tone = status === 200 ? toneOfSuccess[codigo] : status === 409 ? 'warning' : 'danger';
      expect(view, `CODIGO_P ${codigo}`).toMatchObject({ kind: 'codigo', codigo, status, tone });
    }
  });

  it('turns a 400 problem into field errors', () => {
    const errors = [
      { field: 'ieLado', pointer: '#/ieLado', code: 'sideRequired', message: 'Este exame exige lateralidade: informe E, D ou A.' },
    ];
    expect(outcomeFrom(400, problemJson, { status: 400, errors }, slotReservationResponseSchema)).toEqual({
      kind: 'validation',
      status: 400,
      errors,
      tone: 'danger',
    });
  });

  it('keeps other problems apart, with the server detail', () => {
    expect(
      outcomeFrom(403, problemJson, { status: 403, detail: 'Your role does not allow this operation.' }, slotReservationResponseSchema),
    ).toEqual({
      kind: 'problem',
      status: 403,
      detail: 'Your role does not allow this operation.',
      tone: 'danger',
    });
    expect(outcomeFrom(502, 'text/html', null, slotReservationResponseSchema)).toMatchObject({
      kind: 'problem',
      status: 502,
      detail: undefined,
    });
  });

  it('flags a result code outside the contract instead of guessing its meaning', () => {
    expect(outcomeFrom(200, json, body('7'), slotReservationResponseSchema)).toMatchObject({ kind: 'unknown-codigo', status: 200 });
  });
});
