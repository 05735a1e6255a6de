import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { redeliver } from '@/lib/webhooks/delivery/service';
import { parseWebhookId } from '@/lib/webhooks/path-params';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string; entregaId: string }>(operations.redeliver, async ({ principal, params }) =>
  jsonResponse(await redeliver(principal, parseWebhookId(params.id), params.entregaId), { status: 202 }),
);

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
