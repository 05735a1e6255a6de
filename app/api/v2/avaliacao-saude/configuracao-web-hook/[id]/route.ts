import { apiRoute } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { ApiError, problems } from '@/lib/http/errors';
import { webhookIdSchema } from '@/lib/webhooks/contract';
import { customMessage, type Locale } from '@/lib/validation/issues';
import { configuredWebhookUpdateSchema } from '@/lib/webhooks/configured-schema';
import { isPolicyRefusal } from '@/lib/webhooks/policy-codes';
import { etagOf, getWebhook, recordRefusedUpdate, updateWebhook } from '@/lib/webhooks/service';

export const dynamic = 'force-dynamic';

type Params = { id: string };

/** The path's id, lowercase as ids are stored; 400 naming `id` (a path parameter, so no pointer). */
function parseId(id: string, locale: Locale): string {
  if (!webhookIdSchema.safeParse(id).success) {
    throw problems.validation(
      [{ field: 'id', pointer: '', code: 'uuid', message: customMessage('uuid', locale) }],
      'The path parameter id is not a UUID.',
    );
  }
  return id.toLowerCase();
}

export const GET = apiRoute<Params>({ capability: 'webhooks' }, async ({ principal, params, locale }) => {
  const stored = await getWebhook(principal, parseId(params.id, locale));
  return jsonResponse(stored.config, { headers: { ETag: etagOf(stored) } });
});

export const PUT = apiRoute<Params>({ capability: 'webhooks' }, async ({ request, principal, params, json, parse, locale }) => {
  const id = parseId(params.id, locale);
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
  return jsonResponse(stored.config, { headers: { ETag: etagOf(stored) } });
});
