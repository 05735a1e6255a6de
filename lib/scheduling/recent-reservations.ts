import { z } from 'zod';
import type { AuditEntry } from '@/lib/audit/audit-trail';

/**
 * Recent reservations from the audit trail: every successful reserve (CODIGO_P 0), marked
 * `released` when a later release of its token succeeded (CODIGO_P 1). The trail holds patient
 * identifiers masked, so a release prepared from here asks the operator to type them again.
 */
export const recentReservationSchema = z.object({
  token: z.string(),
  at: z.string().meta({ format: 'date-time' }),
  actorId: z.string(),
  state: z.enum(['active', 'released']),
  releasedAt: z.string().nullable(),
  nrSeqAgenda: z.number(),
  nrSeqProcInterno: z.number().nullable(),
  nrMinDuracao: z.number().nullable(),
  ieLado: z.string().nullable(),
  cdConvenio: z.number().nullable(),
  cdCategoria: z.number().nullable(),
  cdPlano: z.number().nullable(),
  nmUsuario: z.string().nullable(),
  /** Masked as stored in the trail, for recognition only. */
  cdPessoaFisica: z.string().nullable(),
  cdUsuarioConvenio: z.string().nullable(),
});

export type RecentReservation = z.infer<typeof recentReservationSchema>;

export const recentReservationsQuerySchema = z.strictObject({
  limite: z.coerce.number().int().min(1).max(200).default(25),
});

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
