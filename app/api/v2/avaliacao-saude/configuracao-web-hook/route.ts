import { FieldRejected } from '@/lib/validation/field-rejected';
import { hasControlCharacters } from '@/lib/validation/text';
import { apiPath, operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { configuredWebhookCreateSchema } from '@/lib/webhooks/configured-schema';
import { createWebhook, etagOf, searchWebhooks, viewOf } from '@/lib/webhooks/service';

export const dynamic = 'force-dynamic';

/** The caller's configurations; `?q=` filters by URL, usuarioId or clientId. */
export const GET = apiRoute(operations.listWebhookConfigurations, async ({ request, principal }) => {
  const q = new URL(request.url).searchParams.get('q');
  if (q !== null && hasControlCharacters(q))
    throw new FieldRejected('q', 'controlCharacters', 'The query parameter q has control characters.', '');
  const search = q?.trim().slice(0, 200) || undefined;
  return jsonResponse(await searchWebhooks(principal, search));
});

/** A new configuration: 201 with the object (and `ativo`), its ETag and Location. */
export const POST = apiRoute(operations.createWebhookConfiguration, async ({ principal, json, parse }) => {
  const input = parse(configuredWebhookCreateSchema(), await json());
  const stored = await createWebhook(principal, input);
  return jsonResponse(viewOf(stored), {
    status: 201,
    headers: { ETag: etagOf(stored), Location: apiPath(operations.getWebhookConfiguration, { id: stored.config.id }) },
  });
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET, POST);
