import { operations } from '@/lib/api/operations';
import { publicRoute } from '@/lib/http/route';
import { buildOpenApiDocument } from '@/lib/openapi/document';

export const dynamic = 'force-dynamic';

let document: string | undefined;

/** The OpenAPI 3.1 document, public so that callers can generate a client before they have a token. */
export const GET = publicRoute(operations.openApiDocument, () => {
  document ??= JSON.stringify(buildOpenApiDocument());
  return new Response(document, {
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  });
});
