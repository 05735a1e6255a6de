import { operations } from '@/lib/api/operations';
import { jsonResponse } from '@/lib/http/problem';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { linkOrigin } from '@/lib/http/same-origin';
import { resetPasswordLink } from '@/lib/staff/service';
import { parseUuidParam } from '@/lib/validation/path-params';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>(operations.resetStaffPassword, async ({ request, principal, params }) => {
  return jsonResponse(await resetPasswordLink(principal, parseUuidParam('id', params.id), linkOrigin(request)));
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
