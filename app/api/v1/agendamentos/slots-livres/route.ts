import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { listFreeSlots } from '@/lib/scheduling/service';

export const dynamic = 'force-dynamic';

/** Free slots, soonest first: `?de=&ate=` (ISO 8601 with offset), `?cdAgenda=`, `?limite=` (≤ 500). */
export const GET = apiRoute(operations.listFreeSlots, async ({ query, principal }) => {
  return jsonResponse(await listFreeSlots(query, principal));
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
