import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { ApiError, problemOf } from '@/lib/http/errors';
import { Refusal } from '@/lib/errors/refusal';
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
  try {
    const update = parse(configuredWebhookUpdateSchema(), await json());
    const stored = await updateWebhook(principal, id, update, request.headers.get('if-match'));
    return jsonResponse(viewOf(stored), { headers: { ETag: etagOf(stored) } });
  } catch (error) {
    // A stale If-Match, or a URL or header the safety policy refused, goes in the audit trail (the
    // change itself rolled back); a malformed body does not.
    const refused =
      error instanceof Refusal && error.kind === 'stale'
        ? problemOf(error)
        : error instanceof ApiError && isPolicyRefusal(error.extra.errors)
          ? error
          : undefined;
    if (refused)
      await recordRefusedUpdate(principal, id, { httpStatus: refused.status, problem: refused.type, errors: refused.extra.errors ?? [] });
    throw error;
  }
});

export const DELETE = apiRoute<Params>(operations.deleteWebhookConfiguration, async ({ principal, params }) => {
  await deleteWebhook(principal, parseId(params.id));
  return new Response(null, { status: 204 });
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PATCH } = otherMethodsNotAllowed(GET, PUT, DELETE);
