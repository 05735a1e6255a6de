import { apiRoute } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { listAudit } from '@/lib/audit/audit-trail';
import { actorId } from '@/lib/auth/principal';
import { recentReservations, recentReservationsQuerySchema } from '@/lib/scheduling/recent-reservations';

export const dynamic = 'force-dynamic';

/** How far back the trail is read to find releases of the listed reservations. */
const TRAIL_WINDOW = 2000;

/**
 * Reservations made through the service, newest first, with their state (active / released).
 * Staff see everyone's; an API client sees only its own.
 */
export const GET = apiRoute({ capability: 'scheduling' }, async ({ request, principal, parse }) => {
  const { limite } = parse(recentReservationsQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  const entries = await listAudit({
    acoes: ['slot.reserve', 'slot.release'],
    ator: principal.kind === 'api-client' ? actorId(principal) : undefined,
    limite: TRAIL_WINDOW,
  });
  return jsonResponse(recentReservations(entries, limite));
});
