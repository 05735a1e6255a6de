import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { ApiError } from '@/lib/http/errors';
import { parseWebhookId as parseId } from '@/lib/webhooks/path-params';
import { configuredWebhookUpdateSchema } from '@/lib/webhooks/configured-schema';
import { isPolicyRefusal } from '@/lib/webhooks/policy-codes';
import { deleteWebhook, detailOf, etagOf, getWebhook, recordRefusedUpdate, updateWebhook, viewOf } from '@/lib/webhooks/service';

export const dynamic = 'force-dynamic';

type Params = { id: string };

export const GET = apiRoute<Params>(operations.getWebhookConfiguration, async ({ principal, params }) => {
  const stored = await getWebhook(principal, parseId(params.id));
  return jsonResponse(detailOf(stored), { headers: { ETag: etagOf(stored) } });
});

export const PUT = apiRoute<Params>(operations.updateWebhookConfiguration, async ({ request, principal, params, json, parse }) => {
  const id = parseId(params.id);
  const body = await json();
  const update = await (async () => {
    try {
      return parse(configuredWebhookUpdateSchema(), body);
    } catch (error) {
      // A URL or header the safety policy refused goes in the audit trail; a malformed body does not.
      if (error instanceof ApiError && isPolicyRefusal(error.extra.errors)) await recordRefusedUpdate(principal, id, error);
      throw error;
    }
  })();
  const stored = await updateWebhook(principal, id, update, request.headers.get('if-match'));
  return jsonResponse(viewOf(stored), { headers: { ETag: etagOf(stored) } });
});

export const DELETE = apiRoute<Params>(operations.deleteWebhookConfiguration, async ({ principal, params }) => {
  await deleteWebhook(principal, parseId(params.id));
  return new Response(null, { status: 204 });
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PATCH } = otherMethodsNotAllowed(GET, PUT, DELETE);
