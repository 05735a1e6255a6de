import { operations } from '@/lib/api/operations';
import { apiRoute } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { listProcedures } from '@/lib/scheduling/service';

export const dynamic = 'force-dynamic';

/** The exams a slot can be reserved for (nrSeqProcInterno, name, usual duration, laterality). */
export const GET = apiRoute(operations.listProcedures, async ({ principal }) => jsonResponse(await listProcedures(principal)));
