import { operations } from '@/lib/api/operations';
import { jsonResponse } from '@/lib/http/problem';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { staffCreateSchema } from '@/lib/staff/contract';
import { linkOrigin } from '@/lib/http/same-origin';
import { createStaff, listStaff } from '@/lib/staff/service';

export const dynamic = 'force-dynamic';

export const GET = apiRoute(operations.listStaff, async () => jsonResponse(await listStaff()));

/** 201 with the account and its one-time password link. */
export const POST = apiRoute(operations.createStaff, async ({ request, principal, json, parse }) =>
  jsonResponse(await createStaff(principal, parse(staffCreateSchema, await json()), linkOrigin(request)), { status: 201 }),
);

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET, POST);
