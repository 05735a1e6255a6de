import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { listProcedures } from '@/lib/scheduling/service';

export const dynamic = 'force-dynamic';

/** The exams a slot can be reserved for (nrSeqProcInterno, name, usual duration, laterality). */
export const GET = apiRoute(operations.listProcedures, async ({ principal }) => jsonResponse(await listProcedures(principal)));

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
