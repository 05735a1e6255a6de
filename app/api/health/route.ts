import { operations } from '@/lib/api/operations';
import { otherMethodsNotAllowed, publicRoute } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';

export const dynamic = 'force-dynamic';

/** Liveness: the process answers. Touches no database, so a database outage never restarts it. */
export const GET = publicRoute(operations.liveness, () => jsonResponse({ status: 'ok', uptimeSeconds: Math.round(process.uptime()) }));

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
