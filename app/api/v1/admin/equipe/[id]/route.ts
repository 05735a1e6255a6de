import { operations } from '@/lib/api/operations';
import { jsonResponse } from '@/lib/http/problem';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { staffUpdateSchema } from '@/lib/staff/contract';
import { updateStaff } from '@/lib/staff/service';
import { webhookIdSchema } from '@/lib/webhooks/contract';
import { problems } from '@/lib/http/errors';

export const dynamic = 'force-dynamic';

export const PUT = apiRoute<{ id: string }>(operations.updateStaff, async ({ principal, params, json, parse }) => {
  if (!webhookIdSchema.safeParse(params.id).success) throw problems.notFound('Staff user not found.');
  return jsonResponse(await updateStaff(principal, params.id.toLowerCase(), parse(staffUpdateSchema, await json())));
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, POST, DELETE, PATCH } = otherMethodsNotAllowed(PUT);
