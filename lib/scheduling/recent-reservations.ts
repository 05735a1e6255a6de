import type { AuditEntry } from '@/lib/audit/audit-trail';

/**
 * Recent reservations from the audit trail: every successful reserve (CODIGO_P 0), marked
 * `released` when a later release of its token succeeded (CODIGO_P 1). The trail holds patient
 * identifiers masked, so a release prepared from here asks the operator to type them again.
 */
export type RecentReservation = {
  token: string;
  at: string;
  actorId: string;
  state: 'active' | 'released';
  releasedAt: string | null;
  nrSeqAgenda: number;
  nrSeqProcInterno: number | null;
  nrMinDuracao: number | null;
  ieLado: string | null;
  cdConvenio: number | null;
  cdCategoria: number | null;
  cdPlano: number | null;
  nmUsuario: string | null;
  /** Masked as stored in the trail, for recognition only. */
  cdPessoaFisica: string | null;
  cdUsuarioConvenio: string | null;
};

type Snapshot = Record<string, unknown>;

const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);
const stringOrNull = (value: unknown) => (typeof value === 'string' ? value : null);

/** `entries` newest first, as listAudit returns them. */
export function recentReservations(entries: readonly AuditEntry[], limit: number): RecentReservation[] {
  const releasedAt = new Map<string, string>();
  for (const entry of entries) {
    const after = entry.after as Snapshot | null;
    if (entry.action !== 'slot.release' || after?.CODIGO_P !== '1' || typeof after.tokenReservaCanc !== 'string') continue;
    // Only one release of a token can succeed; newest first, so this ends on the earliest anyway.
    releasedAt.set(after.tokenReservaCanc, entry.at);
  }
  const result: RecentReservation[] = [];
  for (const entry of entries) {
    const after = entry.after as Snapshot | null;
    if (entry.action !== 'slot.reserve' || after?.CODIGO_P !== '0') continue;
    const token = stringOrNull(after.TOKEN_RESERVA_P);
    const nrSeqAgenda = numberOrNull(after.nrSeqAgenda);
    if (!token || nrSeqAgenda === null) continue;
    const released = releasedAt.get(token) ?? null;
    result.push({
      token,
      at: entry.at,
      actorId: entry.actorId,
      state: released ? 'released' : 'active',
      releasedAt: released,
      nrSeqAgenda,
      nrSeqProcInterno: numberOrNull(after.nrSeqProcInterno),
      nrMinDuracao: numberOrNull(after.nrMinDuracao),
      ieLado: stringOrNull(after.ieLado),
      cdConvenio: numberOrNull(after.cdConvenio),
      cdCategoria: numberOrNull(after.cdCategoria),
      cdPlano: numberOrNull(after.cdPlano),
      nmUsuario: stringOrNull(after.nmUsuario),
      cdPessoaFisica: stringOrNull(after.cdPessoaFisica),
      cdUsuarioConvenio: stringOrNull(after.cdUsuarioConvenio),
    });
    if (result.length >= limit) break;
  }
  return result;
}
