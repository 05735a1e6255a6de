import { operations } from '@/lib/api/operations';
import { jsonResponse } from '@/lib/http/problem';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { staffUpdateSchema } from '@/lib/staff/contract';
import { updateStaff } from '@/lib/staff/service';
import { parseUuidParam } from '@/lib/validation/path-params';

export const dynamic = 'force-dynamic';

export const PUT = apiRoute<{ id: string }>(operations.updateStaff, async ({ principal, params, json, parse }) => {
  return jsonResponse(await updateStaff(principal, parseUuidParam('id', params.id), parse(staffUpdateSchema, await json())));
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, POST, DELETE, PATCH } = otherMethodsNotAllowed(PUT);
