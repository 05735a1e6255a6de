import { operations } from '@/lib/api/operations';
import { apiClientCreateSchema } from '@/lib/api-clients/contract';
import { createApiClient, listApiClients } from '@/lib/api-clients/service';
import { jsonResponse } from '@/lib/http/problem';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const GET = apiRoute(operations.listApiClients, async () => jsonResponse(await listApiClients()));

/** 201 with the new client and its secret, shown this once. */
export const POST = apiRoute(operations.createApiClient, async ({ principal, json, parse }) =>
  jsonResponse(await createApiClient(principal, parse(apiClientCreateSchema, await json())), { status: 201 }),
);

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET, POST);
