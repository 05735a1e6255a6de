import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { getDb } from '@/lib/data';
import { jsonResponse } from '@/lib/http/problem';
import { listRecentReservations } from '@/lib/scheduling/recent-reservations-source';

export const dynamic = 'force-dynamic';

/**
 * Reservations made through the service, newest first, with their state (active / released /
 * expired). Staff see everyone's; an API client sees only its own.
 */
export const GET = apiRoute(operations.listRecentReservations, async ({ query, principal }) => {
  return jsonResponse(await listRecentReservations(await getDb(), principal, query.limite, Date.now()));
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
