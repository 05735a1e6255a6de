import 'server-only';
import { getDb } from '@/lib/db';
import { ApiError, problems } from '@/lib/http/errors';
import { recordAudit } from '@/lib/audit/audit-trail';
import { maskIdentifier } from '@/lib/audit/masking';
import type { Principal } from '@/lib/auth/principal';
import { actorId } from '@/lib/auth/principal';
import { log } from '@/lib/log';
import { customMessage, type Locale } from '@/lib/validation/issues';
import { CODIGO_P_STATUS, isCodigoP, type FreeSlot, type FreeSlotQuery, type SlotReservationRequest, type SlotReservationResponse } from './contract';
import { SideRequiredError, type ProcedureAnswer } from './backend';
import { schedulingBackend } from './backends';

export type ReservationOutcome = { status: number; body: SlotReservationResponse };

/** The message sent for CODIGO_P 9: the procedure's own text may carry database internals. */
export const INTERNAL_ERROR_MESSAGE = 'Erro interno ao processar a reserva. Tente novamente mais tarde.';

/**
 * Reserves (R) or releases (CR) a slot through the scheduling back-end and maps its CODIGO_P to
 * the HTTP status of §7.2. The answer body is the procedure's four fields whatever the status.
 */
export async function reserveOrRelease(
  principal: Principal,
  request: SlotReservationRequest,
  locale: Locale,
): Promise<ReservationOutcome> {
  let answer: ProcedureAnswer;
  try {
    answer = await schedulingBackend().reserveOrRelease(request, { clientId: actorId(principal) });
  } catch (error) {
    if (error instanceof SideRequiredError) {
      throw problems.validation(
        [{ field: 'ieLado', pointer: '#/ieLado', code: 'sideRequired', message: customMessage('sideRequired', locale) }],
        'This exam requires laterality (ieLado).',
      );
    }
    throw error;
  }

  if (!isCodigoP(answer.CODIGO_P)) {
    log.error('scheduling.unknown_codigo_p', { codigo: answer.CODIGO_P.slice(0, 10) });
    throw new ApiError(502, 'urn:integration-console:problem:bad-gateway', 'Bad Gateway', 'The scheduling back-end gave an answer outside the contract.');
  }
  const body: SlotReservationResponse = answer.CODIGO_P === '9' ? { ...answer, MENSAGEM_P: INTERNAL_ERROR_MESSAGE } : answer;
  const status = CODIGO_P_STATUS[answer.CODIGO_P];
  await recordAudit(await getDb(), {
    principal,
    action: request.ieOpcao === 'R' ? 'slot.reserve' : 'slot.release',
    target: `slot:${request.nrSeqAgenda}`,
    outcome: `CODIGO_P=${body.CODIGO_P}`,
    httpStatus: status,
    after: auditView(request, body),
  });
  return { status, body };
}

function auditView(request: SlotReservationRequest, body: SlotReservationResponse) {
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

export function listFreeSlots(query: FreeSlotQuery): Promise<FreeSlot[]> {
  return schedulingBackend().listFreeSlots(query);
}
