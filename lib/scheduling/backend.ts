import type { CodigoP, FreeSlot, FreeSlotQuery, SlotReservationRequest } from './contract';

/**
 * What the reservation service needs from a scheduling back-end: the hospital's Oracle procedure
 * in production, the embedded scheduler by default. Both answer in the procedure's own terms.
 */
export type ProcedureAnswer = {
  IE_RESERVADO_P: 'S' | 'N';
  TOKEN_RESERVA_P: string;
  CODIGO_P: string;
  MENSAGEM_P: string;
};

export type ProcedureCallContext = {
  /** Who asked, for the DBA's session tags; never a patient identifier. */
  clientId: string;
};

export interface SchedulingBackend {
  readonly name: 'embedded' | 'oracle';
  reserveOrRelease(request: SlotReservationRequest, context: ProcedureCallContext): Promise<ProcedureAnswer>;
  listFreeSlots(query: FreeSlotQuery): Promise<FreeSlot[]>;
}

export function answer(codigo: CodigoP, reserved: boolean, token: string, message: string): ProcedureAnswer {
  return { IE_RESERVADO_P: reserved ? 'S' : 'N', TOKEN_RESERVA_P: token, CODIGO_P: codigo, MENSAGEM_P: message };
}

/**
 * The exam needs `ieLado` and none was sent. The contract has no CODIGO_P for it, so it is a 400
 * on the `ieLado` field, raised by back-ends that know the procedure's rules.
 */
export class SideRequiredError extends Error {
  constructor() {
    super('ieLado is required for this procedure');
    this.name = 'SideRequiredError';
  }
}
