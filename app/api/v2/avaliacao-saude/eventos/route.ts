import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { publishEventSchema } from '@/lib/webhooks/delivery-contract';
import { publish } from '@/lib/webhooks/delivery/service';

export const dynamic = 'force-dynamic';

/** An event from its producer: 202 with the deliveries under way, 200 for an idEvento already published. */
export const POST = apiRoute(operations.publishEvent, async ({ principal, json, parse }) => {
  const { repeated, ...published } = await publish(principal, parse(publishEventSchema, await json()));
  return jsonResponse(published, { status: repeated ? 200 : 202 });
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
