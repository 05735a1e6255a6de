import { operations } from '@/lib/api/operations';
import { problems } from '@/lib/http/errors';
import { jsonResponse } from '@/lib/http/problem';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { linkOrigin } from '@/lib/http/same-origin';
import { resetPasswordLink } from '@/lib/staff/service';
import { webhookIdSchema } from '@/lib/webhooks/contract';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>(operations.resetStaffPassword, async ({ request, principal, params }) => {
  if (!webhookIdSchema.safeParse(params.id).success) throw problems.notFound('Staff user not found.');
  return jsonResponse(await resetPasswordLink(principal, params.id.toLowerCase(), linkOrigin(request)));
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
