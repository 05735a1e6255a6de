import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { deliveriesOf } from '@/lib/webhooks/delivery/service';
import { parseWebhookId } from '@/lib/webhooks/path-params';

export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }, typeof operations.listDeliveries>(
  operations.listDeliveries,
  async ({ principal, params, query }) => jsonResponse(await deliveriesOf(principal, parseWebhookId(params.id), query)),
);

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
