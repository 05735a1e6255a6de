import 'server-only';
import { listAudit } from '@/lib/audit/audit-trail';
import { actorId, type Principal } from '@/lib/auth/principal';
import { recentReservations, type RecentReservation } from './recent-reservations';

/** How far back the trail is read for the caller's reservations. */
const TRAIL_WINDOW = 2000;

/**
 * Reservations made through the service, newest first: staff see everyone's, an API client its
 * own. Whether one was released is read from release entries of ANY actor, since staff (or another
 * client holding the token) may release a client's reservation. Releases are looked up by the
 * listed reservations' slots (at most `limit`, within Oracle's 1000-item IN list).
 */
export async function listRecentReservations(principal: Principal, limit: number): Promise<RecentReservation[]> {
  const reserves = await listAudit({
    acao: 'slot.reserve',
    ator: principal.kind === 'api-client' ? actorId(principal) : undefined,
    limite: TRAIL_WINDOW,
  });
  const listed = recentReservations(reserves, limit);
  if (listed.length === 0) return listed;
  const releases = await listAudit({
    acao: 'slot.release',
    alvos: [...new Set(listed.map((reservation) => `slot:${reservation.nrSeqAgenda}`))],
    limite: TRAIL_WINDOW,
  });
  return recentReservations([...releases, ...reserves], limit);
}
