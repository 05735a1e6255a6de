import { operations } from '@/lib/api/operations';
import { otherMethodsNotAllowed, publicRoute } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { readiness } from '@/lib/health/readiness';

export const dynamic = 'force-dynamic';

/** Readiness: 200 when the database and the scheduling back-end answer, 503 otherwise (or while stopping); with timings. */
export const GET = publicRoute(operations.readiness, async () => {
  const { ready, stopping, checks } = await readiness();
  const status = ready ? 'ready' : stopping ? 'stopping' : 'not-ready';
  return jsonResponse({ status, checks }, { status: ready ? 200 : 503 });
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
