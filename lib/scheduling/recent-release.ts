import 'server-only';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import type { Principal } from '@/lib/auth/principal';
import type { SlotReservationRequest } from './contract';
import { releaseRequestFor } from './recent-reservations-store';
import { reserveOrRelease, type ReservationOutcome } from './service';

/**
 * The one-click release of a recent reservation (issue 47): the same release (CR) as the
 * reservation POST, sent with what the reservation log kept for it, so the console need not ask
 * for the patient's identifiers again. Only reservations made by staff keep them (an API client
 * sends its own releases); the outcome is the procedure's four fields, as for the POST.
 */
export async function releaseRecentReservation(
  principal: Principal,
  token: string,
): Promise<{ request: SlotReservationRequest; outcome: ReservationOutcome }> {
  const found = await releaseRequestFor(await getDb(), principal, token, Date.now());
  switch (found.kind) {
    case 'unknown':
      throw refuse.notFound('No recent reservation you may see has this token.');
    case 'not-releasable':
      throw refuse.conflict(
        found.estado === 'released' ? 'reservation-released' : 'reservation-expired',
        `The reservation is ${found.estado}: there is no hold left to release.`,
      );
    case 'not-kept':
      throw refuse.conflict(
        'release-identifiers-not-kept',
        'The patient identifiers of this reservation are not kept (it was made by an API client, or they no longer open): send the release (ieOpcao CR) with them.',
      );
    case 'ready':
      return { request: found.request, outcome: await reserveOrRelease(principal, found.request) };
  }
}
