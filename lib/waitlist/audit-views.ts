import { maskIdentifier, maskToken } from '@/lib/audit/masking';
import type { StaffPrincipal } from '@/lib/auth/principal';
import type { EntryRow } from './entries-store';
import type { OfferRow } from './offers-store';

/** Who the waitlist's own acts (offers, expiries, releases) are recorded as in the audit trail. */
export const WAITLIST_ACTOR: StaffPrincipal = {
  kind: 'staff',
  userId: 'sistema:lista-espera',
  email: 'sistema:lista-espera',
  name: 'Lista de espera',
  roles: [],
};

/** The audit trail's view of an offer: patient identifiers and the token masked, as a reservation's are. */
export function offerAuditView(entry: EntryRow, offer: Pick<OfferRow, 'id' | 'nrSeqAgenda' | 'token' | 'deadline'>) {
  return {
    entradaId: entry.id,
    ofertaId: offer.id,
    usuarioId: entry.usuarioId,
    nrSeqAgenda: offer.nrSeqAgenda,
    nrSeqProcInterno: entry.nrSeqProcInterno,
    cdPessoaFisica: maskIdentifier(entry.cdPessoaFisica),
    cdUsuarioConvenio: maskIdentifier(entry.cdUsuarioConvenio, 4),
    tokenReserva: maskToken(offer.token),
    prazo: offer.deadline === null ? null : new Date(offer.deadline).toISOString(),
  };
}

/** An entry's request as registered, patient identifiers masked: what the API answers and the audit trail keeps. */
export function entryRequestView(entry: EntryRow) {
  return {
    usuarioId: entry.usuarioId,
    nrSeqProcInterno: entry.nrSeqProcInterno,
    ieLado: entry.ieLado,
    nrMinDuracao: entry.nrMinDuracao,
    cdAgendas: entry.agendas,
    de: new Date(entry.windowFrom).toISOString(),
    ate: new Date(entry.windowTo).toISOString(),
    cdPessoaFisica: maskIdentifier(entry.cdPessoaFisica) ?? '',
    cdUsuarioConvenio: maskIdentifier(entry.cdUsuarioConvenio, 4) ?? '',
    cdConvenio: entry.cdConvenio,
    cdCategoria: entry.cdCategoria,
    cdPlano: entry.cdPlano,
    nmUsuario: entry.nmUsuario,
  };
}
