import { FieldRejected } from '@/lib/validation/field-rejected';
import { hasControlCharacters } from '@/lib/validation/text';
import { operations } from '@/lib/api/operations';
import { apiRoute, otherMethodsNotAllowed } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { searchWebhooks } from '@/lib/webhooks/service';

export const dynamic = 'force-dynamic';

/** The caller's configurations; `?q=` filters by URL, usuarioId or clientId. */
export const GET = apiRoute(operations.listWebhookConfigurations, async ({ request, principal }) => {
  const q = new URL(request.url).searchParams.get('q');
  if (q !== null && hasControlCharacters(q))
    throw new FieldRejected('q', 'controlCharacters', '', 'The query parameter q has control characters.');
  const search = q?.trim().slice(0, 200) || undefined;
  return jsonResponse(await searchWebhooks(principal, search));
});

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
