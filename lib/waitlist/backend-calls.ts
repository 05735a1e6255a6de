import 'server-only';
import { randomUUID } from 'node:crypto';
import { env } from '@/lib/config/env';
import { log, redactError } from '@/lib/log';
import { RequestFieldRejected, type ProcedureAnswer, type ProcedureCallContext } from '@/lib/scheduling/backend';
import { schedulingBackend } from '@/lib/scheduling/backends';
import { maxReservationCallMs } from '@/lib/scheduling/call-duration';
import type { SlotReservationRequest } from '@/lib/scheduling/contract';
import type { EntryRow } from './entries-store';

/**
 * The waitlist's calls to the scheduling back-end (R to reserve a slot for an entry, CR to release
 * it), and the lease a claim holds while its call runs.
 */

/** This process, as the owner of its leases. */
export const INSTANCE = randomUUID();
/** A reservation or release claimed longer ago than the longest back-end call (plus margin) was abandoned. */
export const leaseMs = () => maxReservationCallMs(env()) + 5_000;

/** Who the waitlist's calls are made as: the hospital's own, not a partner's. */
export const CALL: ProcedureCallContext = { clientId: 'lista-espera', actsForHospital: true };

export function requestFor(entry: EntryRow, slot: number, option: 'R' | 'CR', token?: string): SlotReservationRequest {
  return {
    nrSeqAgenda: slot,
    nrSeqProcInterno: entry.nrSeqProcInterno,
    ...(entry.ieLado ? { ieLado: entry.ieLado } : {}),
    nrMinDuracao: entry.nrMinDuracao,
    ieOpcao: option,
    ...(token ? { tokenReservaCanc: token } : {}),
    cdPessoaFisica: entry.cdPessoaFisica,
    cdConvenio: entry.cdConvenio,
    cdCategoria: entry.cdCategoria,
    cdPlano: entry.cdPlano,
    cdUsuarioConvenio: entry.cdUsuarioConvenio,
    nmUsuario: entry.nmUsuario,
  };
}

/** The back-end's answer; a failure to answer reads as CODIGO_P 9, a field it refuses as RequestFieldRejected. */
export async function call(request: SlotReservationRequest, owner?: string): Promise<ProcedureAnswer | RequestFieldRejected> {
  try {
    return await schedulingBackend().reserveOrRelease(request, { ...CALL, ...(owner ? { owner } : {}) });
  } catch (error) {
    if (error instanceof RequestFieldRejected) return error;
    log.warn('waitlist.backend_failed', { option: request.ieOpcao, ...redactError(error) });
    return { IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', CODIGO_P: '9', MENSAGEM_P: '', failure: { kind: 'failed' } };
  }
}
