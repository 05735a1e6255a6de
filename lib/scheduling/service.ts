import 'server-only';
import { getDb } from '@/lib/db/handle';
import { refuse, type Refusal } from '@/lib/errors/refusal';
import { recordAudit } from '@/lib/audit/store';
import { maskIdentifier, maskToken } from '@/lib/audit/masking';
import type { Principal } from '@/lib/auth/principal';
import { actorId, ownerKey } from '@/lib/auth/principal';
import { env } from '@/lib/config/env';
import { log, redactError } from '@/lib/log';
import { metrics } from '@/lib/observability/metrics';
import { inSpan } from '@/lib/observability/tracing';
import type { Executor } from '@/lib/db/precompiled';
import {
  CODIGO_P_STATUS,
  isCodigoP,
  MAX_SLOT_GRID_LIMIT,
  type Agenda,
  type AgendaQuery,
  type CodigoP,
  type FreeSlot,
  type FreeSlotQuery,
  type Procedure,
  type Slot,
  type SlotQuery,
  type SlotReservationRequest,
  type SlotReservationResponse,
} from './contract';
import {
  BackendContractError,
  BackendUnavailableError,
  RequestFieldRejected,
  type BackendFailure,
  type ProcedureAnswer,
  type ProcedureCallContext,
  type RecordAnswer,
  type SchedulingBackend,
} from './backend';
import { schedulingBackend } from './backends';
import { backendSpanName, backendSpanOptions, recordBackendAnswer } from './backend-span';
import { assertHoldQuota, HoldQuotaExceeded } from './hold-quota';
import { activeHolds, listRecentReservations, recordRelease, recordReservation } from '@/lib/scheduling/recent-reservations-store';
import type { RecentReservation } from './recent-reservations';

/** An answer of the procedure other than a failure: its §7.2 status and its four fields. */
export type ReservationOutcome = { status: 200 | 404 | 409; body: SlotReservationResponse };

/** The message sent for CODIGO_P 9: the procedure's own text may carry database internals. */
export const INTERNAL_ERROR_MESSAGE = 'Erro interno ao processar a reserva. Tente novamente mais tarde.';
/** CODIGO_P 9 when nothing reached the back-end: safe to repeat after Retry-After. */
export const UNAVAILABLE_MESSAGE = 'Sistema de agendamento indisponível no momento. Nada foi alterado; tente novamente em instantes.';
/** CODIGO_P 9 when the call was cut after it was sent: repeating it blindly could double-book. */
export const UNCERTAIN_MESSAGE =
  'Não foi possível confirmar o resultado: a comunicação com o sistema de agendamento foi interrompida durante a operação, que pode ter sido concluída. Consulte os horários livres antes de repetir.';

const FAILURE_MESSAGES: Record<BackendFailure['kind'], string> = {
  unavailable: UNAVAILABLE_MESSAGE,
  uncertain: UNCERTAIN_MESSAGE,
  failed: INTERNAL_ERROR_MESSAGE,
};

/**
 * Who asks, for the back-end: an API client acts for its own reservations (its owner key) within
 * its hold quota; staff (the route requires the scheduling role) act for the hospital.
 */
function callContext(principal: Principal): ProcedureCallContext {
  const owner = ownerKey(principal);
  if (principal.kind === 'staff') return { clientId: actorId(principal), owner, actsForHospital: true };
  return { clientId: actorId(principal), owner, actsForHospital: false, holdLimit: env().MAX_ACTIVE_HOLDS_PER_CLIENT };
}

/**
 * Reserves (R) or releases (CR) a slot through the scheduling back-end and maps its CODIGO_P to
 * the HTTP status of §7.2. The answer body is the procedure's four fields whatever the status; a
 * failure of the back-end (CODIGO_P 9) is a refusal carrying them, like every other failure.
 * Throws HoldQuotaExceeded, before anything is reserved, when an API client already holds its
 * quota of active reservations: the embedded scheduler counts inside its transaction; for other
 * back-ends the service counts in its read model first.
 */
export async function reserveOrRelease(principal: Principal, request: SlotReservationRequest): Promise<ReservationOutcome> {
  const backend = schedulingBackend();
  const context = callContext(principal);
  if (request.ieOpcao === 'R' && !backend.enforcesHoldQuota && context.holdLimit !== undefined && context.owner !== undefined) {
    const now = Date.now();
    const holds = await activeHolds(await getDb(), context.owner, now);
    assertHoldQuota(holds.count, context.holdLimit, now, holds.oldestExpiresAt);
  }
  let answer: ProcedureAnswer;
  const started = performance.now();
  try {
    answer = await inSpan(backendSpanName(request), backendSpanOptions(backend.name, request), async (span) => {
      const answered = await answerAndRecord(backend, principal, request, context);
      recordBackendAnswer(span, answered);
      return answered;
    });
    observeCall(backend.name, request.ieOpcao, started, answer.CODIGO_P);
  } catch (error) {
    // The caller's bad field or exhausted quota, not a failure: nothing was reserved, the route answers 4xx.
    if (error instanceof RequestFieldRejected || error instanceof HoldQuotaExceeded) throw error;
    observeCall(backend.name, request.ieOpcao, started, undefined);
    // The procedure may or may not have acted: operators need to see the attempt.
    await recordAudit(await getDb(), {
      principal,
      action: actionOf(request),
      target: `slot:${request.nrSeqAgenda}`,
      outcome: 'error',
      httpStatus: error instanceof BackendContractError ? 502 : 500,
      after: auditView(request),
    }).catch(() => undefined);
    if (error instanceof BackendContractError) throw badGateway(error.field);
    throw error;
  }

  if (!isCodigoP(answer.CODIGO_P)) throw badGateway('CODIGO_P');
  const { status, body, failure } = outcomeOf({ ...answer, CODIGO_P: answer.CODIGO_P });
  // CODIGO_P 9: answered with its four fields (§7.2), and Retry-After when nothing reached the back-end.
  if (status === 500) {
    const retryAfterSeconds = failure?.kind === 'unavailable' ? failure.retryAfterSeconds : undefined;
    throw refuse.backendFailed('The scheduling back-end failed to carry the request out.', { body, retryAfterSeconds });
  }
  return { status, body };
}

/**
 * The back-end's answer, with its audit row and reservation-log row written (recordAnswer): the one
 * place a reservation is recorded. A back-end that keeps its data in the app database (the
 * embedded scheduler) writes them in the transaction that decides, so no reservation is answered
 * without its audit row and it costs one durable commit (its own, or the one it shares with the
 * reservations of the same moment). For one with a database of its own (Oracle) they go in one
 * transaction of the app database once it has answered.
 */
async function answerAndRecord(
  backend: SchedulingBackend,
  principal: Principal,
  request: SlotReservationRequest,
  context: ProcedureCallContext,
): Promise<ProcedureAnswer> {
  const record: RecordAnswer = (trx, answer) => recordAnswer(trx, principal, request, answer);
  if (backend.recordsInItsTransaction) return backend.reserveOrRelease(request, context, record);
  const answer = await backend.reserveOrRelease(request, context);
  try {
    await (await getDb()).transaction((trx) => record(trx, answer));
  } catch (error) {
    // The back-end has committed by now: a failed write of our rows must not cost the caller its
    // answer (and its TOKEN_RESERVA_P). It is logged for operators instead.
    log.error('scheduling.record_failed', { codigo: answer.CODIGO_P, ...redactError(error) });
  }
  return answer;
}

/** The call's time and its CODIGO_P (or `error` when the back-end failed without one) in the metrics. */
function observeCall(
  backend: SchedulingBackend['name'],
  ieOpcao: SlotReservationRequest['ieOpcao'],
  started: number,
  codigo: unknown,
): void {
  const m = metrics();
  const answered = typeof codigo === 'string' && isCodigoP(codigo);
  m.backendDuration.observe({ backend, outcome: answered ? 'answered' : 'failed' }, (performance.now() - started) / 1000);
  m.reservations.inc({ ie_opcao: ieOpcao, codigo_p: answered ? codigo : 'error' });
}

/** The HTTP status and body of a back-end's answer; CODIGO_P 9 gets our own message, never the database's. */
function outcomeOf(answer: ProcedureAnswer & { CODIGO_P: CodigoP }) {
  const { failure, expiresAt, ...fields } = answer;
  const body: SlotReservationResponse =
    answer.CODIGO_P === '9' ? { ...fields, MENSAGEM_P: FAILURE_MESSAGES[failure?.kind ?? 'failed'] } : fields;
  return { status: CODIGO_P_STATUS[answer.CODIGO_P], body, failure, expiresAt };
}

/** The audit row and the recent-reservations read model of one answer, in the caller's transaction. */
async function recordAnswer(trx: Executor, principal: Principal, request: SlotReservationRequest, answer: ProcedureAnswer): Promise<void> {
  if (!isCodigoP(answer.CODIGO_P)) return; // answered 502 by the route; the back-end's text is not kept
  const { status, body, failure, expiresAt } = outcomeOf({ ...answer, CODIGO_P: answer.CODIGO_P });
  await recordAudit(trx, {
    principal,
    action: actionOf(request),
    target: `slot:${request.nrSeqAgenda}`,
    outcome: failure ? `CODIGO_P=9 ${failure.kind}` : `CODIGO_P=${body.CODIGO_P}`,
    httpStatus: status,
    after: { ...auditView(request, body), ...(failure ? { falha: failure.kind } : {}) },
  });
  const at = Date.now();
  if (body.CODIGO_P === '0') await recordReservation(trx, principal, request, { token: body.TOKEN_RESERVA_P, expiresAt, at });
  if (body.CODIGO_P === '1') await recordRelease(trx, request, at);
}

function badGateway(field: string): Refusal {
  log.error('scheduling.answer_outside_contract', { field });
  return refuse.badBackend('The scheduling back-end gave an answer outside the contract.');
}

function actionOf(request: SlotReservationRequest) {
  return request.ieOpcao === 'R' ? ('slot.reserve' as const) : ('slot.release' as const);
}

function auditView(request: SlotReservationRequest, body?: SlotReservationResponse) {
  return {
    ieOpcao: request.ieOpcao,
    nrSeqAgenda: request.nrSeqAgenda,
    nrSeqProcInterno: request.nrSeqProcInterno,
    nrMinDuracao: request.nrMinDuracao,
    ieLado: request.ieLado ?? null,
    cdPessoaFisica: maskIdentifier(request.cdPessoaFisica),
    cdUsuarioConvenio: maskIdentifier(request.cdUsuarioConvenio, 4),
    cdConvenio: request.cdConvenio,
    // Plan codes are not patient data; kept so a release can be prepared from the trail.
    cdCategoria: request.cdCategoria,
    cdPlano: request.cdPlano,
    nmUsuario: request.nmUsuario,
    tokenReservaCanc: maskToken(request.tokenReservaCanc),
    // The answer's token releases the slot: the trail keeps its last characters only, like the request's.
    ...(body ? { ...body, TOKEN_RESERVA_P: maskToken(body.TOKEN_RESERVA_P) } : {}),
  };
}

/** Reservations made through the service, newest first, with their state; staff see everyone's, a client its own. */
export async function recentReservations(principal: Principal, limit: number): Promise<RecentReservation[]> {
  return listRecentReservations(await getDb(), principal, limit, Date.now());
}

export async function listFreeSlots(query: FreeSlotQuery, principal?: Principal): Promise<FreeSlot[]> {
  try {
    return await schedulingBackend().listFreeSlots(query, { clientId: principal ? actorId(principal) : '' });
  } catch (error) {
    if (error instanceof BackendUnavailableError) {
      throw refuse.unavailable(error.retryAfterSeconds, 'The scheduling back-end is unavailable. Try again shortly.');
    }
    throw error;
  }
}

/**
 * Every slot of a window with its state, for the console's calendar. A back-end that only lists
 * free slots (the hospital's Oracle view) answers those, each `livre`: taken and held slots are
 * then absent, not shown as such.
 */
export async function listSlots(query: SlotQuery, principal: Principal): Promise<Slot[]> {
  const backend = schedulingBackend();
  try {
    if (backend.listSlots) return await backend.listSlots(query, callContext(principal));
    const free = await backend.listFreeSlots(query, { clientId: actorId(principal) });
    return free.map((slot) => ({ ...slot, situacao: 'livre' as const, expiraEm: null }));
  } catch (error) {
    if (error instanceof BackendUnavailableError) {
      throw refuse.unavailable(error.retryAfterSeconds, 'The scheduling back-end is unavailable. Try again shortly.');
    }
    throw error;
  }
}

/**
 * The agendas with a slot in a window, by code: what the calendar's day view pages through, asking
 * the grid for the agendas on screen only. A back-end without its own listing answers those of the
 * window's slots (at most MAX_SLOT_GRID_LIMIT of them).
 */
export async function listAgendas(query: AgendaQuery, principal: Principal): Promise<Agenda[]> {
  const backend = schedulingBackend();
  if (backend.listAgendas) return backend.listAgendas(query);
  const slots = await listSlots({ ...query, limite: MAX_SLOT_GRID_LIMIT }, principal);
  return [...new Set(slots.map((slot) => slot.CD_AGENDA))].sort((a, b) => a - b).map((code) => ({ CD_AGENDA: code }));
}

/** The exams to choose from; 501 when the configured back-end has no such listing (Oracle). */
export async function listProcedures(principal?: Principal): Promise<Procedure[]> {
  const backend = schedulingBackend();
  if (!backend.listProcedures) {
    throw refuse.unsupported(
      `The ${backend.name} scheduling back-end has no exam listing. Send the exam's code (nrSeqProcInterno) from the hospital system.`,
    );
  }
  return backend.listProcedures({ clientId: principal ? actorId(principal) : '' });
}
