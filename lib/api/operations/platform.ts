import 'server-only';
import { ApiReference } from '@scalar/nextjs-api-reference';
import { handleTokenRequest } from '@/lib/auth/token-endpoint';
import { readiness } from '@/lib/health/readiness';
import { jsonResponse } from '@/lib/http/problem';
import { buildOpenApiDocument } from '@/lib/openapi/document';
import { scrape } from '@/lib/observability/scrape';
import { ref } from '@/lib/openapi/components';
import { oauthErrorSchema, tokenRequestSchema, tokenResponseSchema } from '@/lib/auth/token-contract';
import { json, malformedRequest, problem } from '@/lib/openapi/fragments';
import { operation } from '../operation';

let openApiDocument: string | undefined;

/**
 * The interactive API reference (Scalar) for callers, rendering /api/openapi.json. Its script is
 * served by the app (public/vendor, copied at build time) and the default web fonts are off, so
 * the page loads nothing from outside: it works offline and behind a strict egress policy.
 */
const reference = ApiReference({
  url: '/api/openapi.json',
  cdn: '/vendor/scalar/standalone.js',
  pageTitle: 'Integration Console — API',
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  // Scalar's hosted extras (developer toolbar, MCP generation, its AI agent) call out to its cloud: not here.
  showDeveloperTools: 'never',
  mcp: { disabled: true },
  agent: { disabled: true },
});

/** Tokens, health checks and the API's own documents: the public operations. */
export const platformOperations = {
  issueToken: operation(
    {
      method: 'POST',
      path: '/api/v1/auth/token',
      // The client's credentials are in the request itself: checking them is the operation's work.
      capability: 'public',
      doc: {
        summary: 'Access token (OAuth 2.0 client credentials)',
        tags: ['Autenticação'],
        security: [{}, { clientBasic: [] }],
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref(tokenRequestSchema) } } },
        responses: {
          '200': { description: 'A short-lived Bearer token.', content: json(ref(tokenResponseSchema)) },
          '400': { description: 'Missing or unsupported grant_type.', content: json(ref(oauthErrorSchema)) },
          '401': { description: 'Client authentication failed (invalid_client).', content: json(ref(oauthErrorSchema)) },
          '429': {
            description: 'Too many failed attempts for this client_id: invalid_client, retry after the Retry-After header’s seconds.',
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the client_id is unlocked.' } },
            content: json(ref(oauthErrorSchema)),
          },
          '404': problem('The embedded issuer is switched off (AUTH_EMBEDDED_ISSUER=false): use the integration platform’s token.'),
        },
      },
    },
    (request) => handleTokenRequest(request),
  ),
  /** Liveness: the process answers. Touches no database, so a database outage never restarts it. */
  liveness: operation(
    {
      method: 'GET',
      path: '/api/health',
      capability: 'public',
      doc: {
        summary: 'Liveness: the process answers (no database access)',
        tags: ['Operação'],
        security: [{}],
        responses: {
          '200': { description: '`{"status":"ok","tempoAtivoSegundos":…}`', content: json({ type: 'object' }) },
          '4XX': malformedRequest,
        },
      },
    },
    () => jsonResponse({ status: 'ok', tempoAtivoSegundos: Math.round(process.uptime()) }),
  ),
  /** Readiness: 200 when the database and the scheduling back-end answer, 503 otherwise (or while stopping); with timings. */
  readiness: operation(
    {
      method: 'GET',
      path: '/api/health/ready',
      capability: 'public',
      doc: {
        summary: 'Readiness: the database and the scheduling back-end answer, with timings',
        tags: ['Operação'],
        security: [{}],
        responses: {
          '200': {
            description: '`{"status":"ready","verificacoes":{"bancoDeDados":{ok,ms,dialeto},"agendamento":{ok,ms,sistema}}}`',
            content: json({ type: 'object' }),
          },
          '503': {
            description:
              'A check failed: `"status":"not-ready"`, the failing check with an error code (`erro`); or the instance is stopping for a deploy: `"status":"stopping"`.',
            content: json({ type: 'object' }),
          },
          '4XX': malformedRequest,
        },
      },
    },
    async () => {
      const { ready, stopping, verificacoes } = await readiness();
      const status = ready ? 'ready' : stopping ? 'stopping' : 'not-ready';
      return jsonResponse({ status, verificacoes }, { status: ready ? 200 : 503 });
    },
  ),
  /** The OpenAPI 3.1 document, public so that callers can generate a client before they have a token. */
  openApiDocument: operation({ method: 'GET', path: '/api/openapi.json', capability: 'public' }, () => {
    openApiDocument ??= JSON.stringify(buildOpenApiDocument());
    return new Response(openApiDocument, {
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
    });
  }),
  apiReference: operation({ method: 'GET', path: '/api/docs', capability: 'public' }, () => reference()),
  /**
   * Prometheus metrics for operators, like the documents outside the API document. Public to the
   * router: the scrape checks its own METRICS_TOKEN (lib/observability/scrape.ts).
   */
  metrics: operation({ method: 'GET', path: '/metrics', capability: 'public' }, (request) => scrape(request)),
};
