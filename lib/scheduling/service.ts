import 'server-only';
import { getDb } from '@/lib/data';
import { ApiError, problems } from '@/lib/http/errors';
import { recordAudit } from '@/lib/audit/audit-trail';
import { maskIdentifier } from '@/lib/audit/masking';
import type { Principal } from '@/lib/auth/principal';
import { actorId, ownerKey } from '@/lib/auth/principal';
import { env } from '@/lib/config/env';
import { log, redactError } from '@/lib/log';
import {
  CODIGO_P_STATUS,
  isCodigoP,
  type FreeSlot,
  type FreeSlotQuery,
  type Procedure,
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
} from './backend';
import { schedulingBackend } from './backends';
import { assertHoldQuota, HoldQuotaExceeded } from './hold-quota';
import { activeHolds, recordRelease, recordReservation } from './recent-reservations-source';

export type ReservationOutcome = { status: number; body: SlotReservationResponse; headers?: Record<string, string> };

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
 * the HTTP status of §7.2. The answer body is the procedure's four fields whatever the status.
 * Throws HoldQuotaExceeded, before anything is reserved, when an API client already holds its
 * quota of active reservations (counted in the read model here, for every back-end; the embedded
 * scheduler counts again inside its transaction, so parallel requests cannot pass it).
 */
export async function reserveOrRelease(principal: Principal, request: SlotReservationRequest): Promise<ReservationOutcome> {
  const context = callContext(principal);
  if (request.ieOpcao === 'R' && context.holdLimit !== undefined && context.owner !== undefined) {
    const now = Date.now();
    const holds = await activeHolds(await getDb(), context.owner, now);
    assertHoldQuota(holds.count, context.holdLimit, now, holds.oldestExpiresAt);
  }
  let answer: ProcedureAnswer;
  try {
    answer = await schedulingBackend().reserveOrRelease(request, context);
  } catch (error) {
    // The caller's bad field or exhausted quota, not a failure: nothing was reserved, the route answers 4xx.
    if (error instanceof RequestFieldRejected || error instanceof HoldQuotaExceeded) throw error;
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
  const { failure, expiresAt, ...fields } = answer;
  const body: SlotReservationResponse =
    answer.CODIGO_P === '9' ? { ...fields, MENSAGEM_P: FAILURE_MESSAGES[failure?.kind ?? 'failed'] } : fields;
  const status = CODIGO_P_STATUS[answer.CODIGO_P];
  // The back-end has committed by now: a failed audit write must not cost the caller its answer
  // (and its TOKEN_RESERVA_P). It is logged for operators instead.
  await recordAudit(await getDb(), {
    principal,
    action: actionOf(request),
    target: `slot:${request.nrSeqAgenda}`,
    outcome: failure ? `CODIGO_P=9 ${failure.kind}` : `CODIGO_P=${body.CODIGO_P}`,
    httpStatus: status,
    after: { ...auditView(request, body), ...(failure ? { falha: failure.kind } : {}) },
  }).catch((auditError: unknown) => log.error('scheduling.audit_write_failed', { codigo: body.CODIGO_P, ...redactError(auditError) }));
  await recordInReadModel(principal, request, body, expiresAt);
  const headers = failure?.kind === 'unavailable' ? { 'Retry-After': String(failure.retryAfterSeconds) } : undefined;
  return { status, body, headers };
}

/** The recent-reservations read model; like the audit, a failed write must not cost the caller its answer. */
async function recordInReadModel(principal: Principal, request: SlotReservationRequest, body: SlotReservationResponse, expiresAt?: number) {
  try {
    const at = Date.now();
    if (body.CODIGO_P === '0') await recordReservation(await getDb(), principal, request, { token: body.TOKEN_RESERVA_P, expiresAt, at });
    if (body.CODIGO_P === '1') await recordRelease(await getDb(), request, at);
  } catch (error) {
    log.error('scheduling.read_model_write_failed', { codigo: body.CODIGO_P, ...redactError(error) });
  }
}

function badGateway(field: string): ApiError {
  log.error('scheduling.answer_outside_contract', { field });
  return new ApiError(
    502,
    'urn:integration-console:problem:bad-gateway',
    'Bad Gateway',
    'The scheduling back-end gave an answer outside the contract.',
  );
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
    tokenReservaCanc: request.tokenReservaCanc ?? null,
    ...body,
  };
}

export async function listFreeSlots(query: FreeSlotQuery, principal?: Principal): Promise<FreeSlot[]> {
  try {
    return await schedulingBackend().listFreeSlots(query, { clientId: principal ? actorId(principal) : '' });
  } catch (error) {
    if (error instanceof BackendUnavailableError) {
      throw problems.serviceUnavailable(error.retryAfterSeconds, 'The scheduling back-end is unavailable. Try again shortly.');
    }
    throw error;
  }
}

/** The exams to choose from; 501 when the configured back-end has no such listing (Oracle). */
export async function listProcedures(principal?: Principal): Promise<Procedure[]> {
  const backend = schedulingBackend();
  if (!backend.listProcedures) {
    throw problems.notImplemented(
      `The ${backend.name} scheduling back-end has no exam listing. Send the exam's code (nrSeqProcInterno) from the hospital system.`,
    );
  }
  return backend.listProcedures({ clientId: principal ? actorId(principal) : '' });
}
