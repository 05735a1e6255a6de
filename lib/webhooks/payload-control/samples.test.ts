import { describe, expect, it } from 'vitest';
import { EVENT_TYPE_OF_FLAG, SCHEDULING_EVENT_FLAGS } from '../events/types';
import { MESSAGE_SCHEMAS } from '../events/messages';
import { sampleMessage } from './samples';

const TENANT = '11111111-1111-4111-8111-111111111111';

describe('sampleMessage', () => {
  it('gives each scheduling event the catalogue’s own example, valid against its message schema', () => {
    for (const flag of SCHEDULING_EVENT_FLAGS) {
      const message = sampleMessage(flag, TENANT);
      expect(message.type).toBe(EVENT_TYPE_OF_FLAG[flag]);
      expect(MESSAGE_SCHEMAS[message.type]!.safeParse(message).success, flag).toBe(true);
    }
    expect(sampleMessage('eventoAgendamentoReservado', TENANT).data).toMatchObject({ nrSeqProcInterno: 501 });
  });

  it('gives an evaluation event the sample with the personal data minimisation is for', () => {
    const message = sampleMessage('avaliacao-saude.aprovada', TENANT);
    expect(MESSAGE_SCHEMAS[message.type]!.safeParse(message).success).toBe(true);
    expect(message.data).toMatchObject({ beneficiario: { cpf: '12345678901' }, usuarioId: TENANT });
  });
});
