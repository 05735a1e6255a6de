import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { secretOf } from '@/lib/webhooks/delivery/service';
import { parseWebhookId } from '@/lib/webhooks/path-params';

export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>(operations.getWebhookSecret, async ({ principal, params }) =>
  jsonResponse(await secretOf(principal, parseWebhookId(params.id))),
);

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
