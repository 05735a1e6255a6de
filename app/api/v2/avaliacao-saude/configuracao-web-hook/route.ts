import { operations } from '@/lib/api/operations';
import { apiRoute } from '@/lib/http/route';
import { jsonResponse } from '@/lib/http/problem';
import { searchWebhooks } from '@/lib/webhooks/service';

export const dynamic = 'force-dynamic';

/** The caller's configurations; `?q=` filters by URL, usuarioId or clientId. */
export const GET = apiRoute(operations.listWebhookConfigurations, async ({ request, principal }) => {
  const search = new URL(request.url).searchParams.get('q')?.trim().slice(0, 200) || undefined;
  return jsonResponse(await searchWebhooks(principal, search));
});
