import { operations } from '@/lib/api/operations';
import { revokeApiClient } from '@/lib/api-clients/service';
import { jsonResponse } from '@/lib/http/problem';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ clientId: string }>(operations.revokeApiClient, async ({ principal, params }) =>
  jsonResponse(await revokeApiClient(principal, params.clientId)),
);

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
