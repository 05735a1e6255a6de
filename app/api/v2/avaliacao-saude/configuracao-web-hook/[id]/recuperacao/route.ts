import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { recoverySchema } from '@/lib/webhooks/delivery-contract';
import { recover } from '@/lib/webhooks/delivery/service';
import { parseWebhookId } from '@/lib/webhooks/path-params';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>(operations.recoverDeliveries, async ({ principal, params, json, parse }) => {
  const id = parseWebhookId(params.id);
  const { desde } = parse(recoverySchema, await json());
  return jsonResponse(await recover(principal, id, desde), { status: 202 });
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
