import { operations } from '@/lib/api/operations';
import { otherMethodsNotAllowed, publicRoute } from '@/lib/http/route';
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

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
