import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { sendTestEvent } from '@/lib/webhooks/delivery/service';
import { parseWebhookId } from '@/lib/webhooks/path-params';

export const dynamic = 'force-dynamic';

export const POST = apiRoute<{ id: string }>(operations.sendTestEvent, async ({ principal, params }) =>
  jsonResponse(await sendTestEvent(principal, parseWebhookId(params.id)), { status: 202 }),
);

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { GET, HEAD, PUT, DELETE, PATCH } = otherMethodsNotAllowed(POST);
