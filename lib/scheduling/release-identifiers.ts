import 'server-only';
import { sealer } from '@/lib/auth/sealing';
import type { SlotReservationRequest } from '@/lib/scheduling/contract';

/**
 * What a release (CR) needs that the reservation log keeps only masked: the patient's identifiers.
 * A reservation staff make keeps them sealed (lib/auth/sealing.ts) and bound to its log row, so the
 * console's recent list releases it in one click; they are cleared once it is released or lapses
 * (recent-reservations-store.ts). API clients send their own releases and keep their own data.
 */
export type ReleaseIdentifiers = Pick<SlotReservationRequest, 'cdPessoaFisica' | 'cdUsuarioConvenio'>;

const sealing = sealer('reservation-release-identifiers');
const boundTo = (rowId: string) => `reservation-release:${rowId}`;

export function sealReleaseIdentifiers(rowId: string, { cdPessoaFisica, cdUsuarioConvenio }: ReleaseIdentifiers): string {
  return sealing.seal(JSON.stringify({ cdPessoaFisica, cdUsuarioConvenio }), boundTo(rowId));
}

/** The identifiers sealed for this row; throws for a value sealed for another row or with another key. */
export function openReleaseIdentifiers(rowId: string, sealed: string): ReleaseIdentifiers {
  const value = JSON.parse(sealing.open(sealed, boundTo(rowId))) as ReleaseIdentifiers;
  return { cdPessoaFisica: Number(value.cdPessoaFisica), cdUsuarioConvenio: String(value.cdUsuarioConvenio) };
}
