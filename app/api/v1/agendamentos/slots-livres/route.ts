import { operations } from '@/lib/api/operations';
import { apiRoute } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { listFreeSlots } from '@/lib/scheduling/service';

export const dynamic = 'force-dynamic';

/** Free slots, soonest first: `?de=&ate=` (ISO 8601 with offset), `?cdAgenda=`, `?limite=` (≤ 500). */
export const GET = apiRoute(operations.listFreeSlots, async ({ query, principal }) => {
  return jsonResponse(await listFreeSlots(query, principal));
});
