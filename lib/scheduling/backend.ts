import type { Executor } from '@/lib/db/precompiled';
import type { Agenda, AgendaQuery, CodigoP, FreeSlot, FreeSlotQuery, Procedure, Slot, SlotQuery, SlotReservationRequest } from './contract';
import { FieldRejected } from '@/lib/validation/field-rejected';

/**
 * What the reservation service needs from a scheduling back-end: the hospital's Oracle procedure
 * in production, the embedded scheduler by default. Both answer in the procedure's own terms.
 */
export type ProcedureAnswer = {
  IE_RESERVADO_P: 'S' | 'N';
  TOKEN_RESERVA_P: string;
  CODIGO_P: string;
  MENSAGEM_P: string;
  /** Set with CODIGO_P 9 when the back-end could not be asked or did not answer (see BackendFailure). */
  failure?: BackendFailure;
  /** With CODIGO_P 0, when the back-end lets the hold lapse (epoch ms); absent: held until released. */
  expiresAt?: number;
};

/**
 * Why a call produced no answer from the procedure. `unavailable`: nothing reached the database
 * (pool exhausted, database unreachable), so the caller may retry after `retryAfterSeconds`.
 * `uncertain`: the call was sent and the connection was lost or timed out before the answer, so it
 * may or may not have committed. `failed`: the database answered with an error.
 */
export type BackendFailure = { kind: 'unavailable'; retryAfterSeconds: number } | { kind: 'uncertain' } | { kind: 'failed' };

export type ProcedureCallContext = {
  /** Who asked, for the DBA's session tags; never a patient identifier. */
  clientId: string;
  /**
   * Whose reservation a reserve makes and whose a release may touch (ownerKey). Back-ends that keep
   * reservations (the embedded scheduler) refuse a release of another owner's like a wrong token.
   */
  owner?: string;
  /** Staff with the scheduling role act for the hospital: they may release any reservation. */
  actsForHospital?: boolean;
  /** Active reservations the owner may hold; a reserve past it throws HoldQuotaExceeded. */
  holdLimit?: number;
};

/** Writes the service's rows for an answer (audit, reservation log) in the transaction it is given. */
export type RecordAnswer = (trx: Executor, answer: ProcedureAnswer) => Promise<void>;

export interface SchedulingBackend {
  readonly name: 'embedded' | 'oracle';
  /** The back-end counts the owner's active holds itself, in the transaction that reserves. */
  readonly enforcesHoldQuota: boolean;
  /**
   * The back-end keeps its data in the app database, so the service's rows for an answer can be
   * written in the transaction that decides it: reserveOrRelease is then given `record` and runs it
   * there (one durable commit; never a reservation without its audit row). Otherwise it is not given
   * one, and the service writes them once the back-end has answered (lib/scheduling/service.ts).
   */
  readonly recordsInItsTransaction: boolean;
  reserveOrRelease(request: SlotReservationRequest, context: ProcedureCallContext, record?: RecordAnswer): Promise<ProcedureAnswer>;
  listFreeSlots(query: FreeSlotQuery, context?: ProcedureCallContext): Promise<FreeSlot[]>;
  /**
   * Every slot of a window with its state (free, held by a reservation the caller may see, taken).
   * Optional: a back-end that can only list free slots (the hospital's Oracle view) leaves it out,
   * and the service answers its free slots, each `livre`.
   */
  listSlots?(query: SlotQuery, context: ProcedureCallContext): Promise<Slot[]>;
  /**
   * The agendas with a slot in the window, whatever its state, by code. Optional: without it the
   * service takes them from the window's slots (listSlots, or the free ones).
   */
  listAgendas?(query: AgendaQuery): Promise<Agenda[]>;
  /**
   * The exams a slot can be reserved for. Optional: the hospital's Oracle back-end exposes no such
   * source in the contract, and the route answers 501 without it.
   */
  listProcedures?(context?: ProcedureCallContext): Promise<Procedure[]>;
  /** Throws when the back-end cannot be reached (readiness probe); the app database is checked apart. */
  checkReady?(): Promise<void>;
}

export function answer(codigo: CodigoP, reserved: boolean, token: string, message: string): ProcedureAnswer {
  return { IE_RESERVADO_P: reserved ? 'S' : 'N', TOKEN_RESERVA_P: token, CODIGO_P: codigo, MENSAGEM_P: message };
}

/** The problem's detail for each refused field's code, when the back-end gives none of its own. */
const REJECTED_FIELD_DETAILS = {
  sideRequired: 'ieLado is required for this exam.',
  unknownProcedure: 'nrSeqProcInterno names no exam of the scheduling back-end.',
  durationTooLong: 'nrMinDuracao is longer than this exam allows.',
} as const;

/**
 * A request field the back-end's own data rejects, such as an exam that needs `ieLado` sent
 * without it, or an unknown `nrSeqProcInterno`. The contract has no CODIGO_P for these, so the
 * API wrapper answers 400 naming the field, worded from its message code in the caller's language.
 */
export class RequestFieldRejected extends FieldRejected {
  constructor(
    field: 'ieLado' | 'nrSeqProcInterno' | 'nrMinDuracao',
    code: keyof typeof REJECTED_FIELD_DETAILS,
    detail: string = REJECTED_FIELD_DETAILS[code],
  ) {
    // The pointer is FieldRejected's default, `#/<field>`: a body field.
    super(field, code, detail);
    this.name = 'RequestFieldRejected';
  }
}

/** The back-end answered outside the contract (§2.3, §7.2): the route answers 502. */
export class BackendContractError extends Error {
  constructor(readonly field: string) {
    super(`scheduling back-end answered outside the contract in ${field}`);
    this.name = 'BackendContractError';
  }
}

/** No connection to the back-end could be had for a read: the route answers 503 with Retry-After. */
export class BackendUnavailableError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('scheduling back-end unavailable');
    this.name = 'BackendUnavailableError';
  }
}
