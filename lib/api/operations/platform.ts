import 'server-only';
import { ApiReference } from '@scalar/nextjs-api-reference';
import { handleTokenRequest } from '@/lib/sign-in/token-endpoint';
import { livenessSchema, readinessSchema } from '@/lib/health/contract';
import { readiness } from '@/lib/health/readiness';
import { scrape } from '@/lib/health/scrape';
import { ref } from '@/lib/openapi/components';
import { oauthErrorSchema, tokenRequestSchema, tokenResponseSchema } from '@/lib/auth/token-contract';
import { answer } from '@/lib/http/answers';
import { operation } from '@/lib/http/operation';

/**
 * The interactive API reference (Scalar) for callers, rendering /api/openapi.json. Its script is
 * served by the app (public/vendor, copied at build time) and the default web fonts are off, so
 * the page loads nothing from outside: it works offline and behind a strict egress policy.
 * The document is English throughout (section names included), so the page says so (`lang`); it
 * has the console's icon and a link back to the console above Scalar's own layout.
 */
const REFERENCE_CSS = `
.console-back { display: flex; align-items: center; height: 2.5rem; padding: 0 1rem; border-bottom: 1px solid var(--scalar-border-color); font: 500 0.875rem/1 system-ui, sans-serif; }
.console-back a { color: #4338ca; text-decoration: none; border-radius: 0.25rem; }
.console-back a:hover { text-decoration: underline; }
.console-back a:focus-visible { outline: 2px solid #4338ca; outline-offset: 2px; }
/* Scalar's sidebar and pages fill the window: the back link's bar comes off their height. */
:root { --scalar-custom-header-height: 2.5rem; }
/* The auth card's header: "Authentication Required" whole, the auth type's selector beside it
   when both fit and on a line of its own when not (it once cut the label to "Requi…" and overlapped it). */
.scalar-reference-intro-auth .rounded-t-xl { flex-wrap: wrap; }
.scalar-reference-intro-auth .rounded-t-xl > button { flex: 1 0 auto; overflow: visible; }
`;

const reference = ApiReference({
  url: '/api/openapi.json',
  cdn: '/vendor/scalar/standalone.js',
  pageTitle: 'Integration Console — API',
  favicon: '/icon.svg',
  customCss: REFERENCE_CSS,
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  // Scalar's hosted extras (developer toolbar, MCP generation, its AI agent) call out to its cloud: not here.
  showDeveloperTools: 'never',
  mcp: { disabled: true },
  agent: { disabled: true },
});

/** Scalar's page, with its language, the console's icon and the way back to the console. */
async function referencePage(): Promise<Response> {
  const page = reference();
  const html = (await page.text())
    .replace('<html>', '<html lang="en">')
    .replace('<head>', '<head>\n    <link rel="icon" href="/icon.svg" type="image/svg+xml" />')
    .replace(
      '<body>',
      '<body>\n    <nav class="console-back" aria-label="Integration Console"><a href="/">← Back to the Integration Console</a></nav>',
    );
  return new Response(html, { status: page.status, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

/** Tokens, health checks and the API's own documents: the public operations. */
/**
 * The platform's operations. The OpenAPI document describes every operation, these included, so
 * lib/api/operations.ts hands in how to build it rather than this module importing the whole list
 * back (a cycle).
 */
export function platformOperations(buildDocument: () => unknown) {
  let openApiDocument: string | undefined;
  return {
    issueToken: operation(
      {
        method: 'POST',
        path: '/api/v1/auth/token',
        // The client's credentials are in the request itself: checking them is the operation's work.
        capability: 'public',
        responses: {
          200: answer.json(tokenResponseSchema, 'A short-lived Bearer token.'),
          400: answer.json(oauthErrorSchema, 'Missing or unsupported grant_type, or a scope the client does not have.'),
          401: answer.json(oauthErrorSchema, 'Client authentication failed (invalid_client).'),
          404: answer.problem('The embedded issuer is switched off (AUTH_EMBEDDED_ISSUER=false): use the integration platform’s token.'),
          429: answer.json(
            oauthErrorSchema,
            'Too many failed attempts for this client_id: invalid_client, retry after the Retry-After header’s seconds.',
            { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the client_id is unlocked.' } } },
          ),
          503: answer.problem('The database is unavailable for a moment; retry after Retry-After seconds.'),
        },
        doc: {
          summary: 'Access token (OAuth 2.0 client credentials)',
          tags: ['Authentication'],
          security: [{}, { clientBasic: [] }],
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref(tokenRequestSchema) } } },
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
        responses: { 200: answer.json(livenessSchema, 'The process answers.') },
        doc: { summary: 'Liveness: the process answers (no database access)', tags: ['Operations'], security: [{}] },
      },
      () => ({ status: 200, body: { status: 'ok', tempoAtivoSegundos: Math.round(process.uptime()) } }),
    ),
    /** Readiness: 200 when the database and the scheduling back-end answer, 503 otherwise (or while stopping); with timings. */
    readiness: operation(
      {
        method: 'GET',
        path: '/api/health/ready',
        capability: 'public',
        responses: {
          200: answer.json(readinessSchema, 'Ready: `"status":"ready"`, with each check’s time.'),
          503: answer.json(
            readinessSchema,
            'A check failed: `"status":"not-ready"`, the failing check with an error code (`erro`); or the instance is stopping for a deploy: `"status":"stopping"`.',
          ),
        },
        doc: { summary: 'Readiness: the database and the scheduling back-end answer, with timings', tags: ['Operations'], security: [{}] },
      },
      async () => {
        const { ready, stopping, verificacoes } = await readiness();
        if (ready) return { status: 200, body: { status: 'ready', verificacoes } };
        return { status: 503, body: { status: stopping ? 'stopping' : 'not-ready', verificacoes } };
      },
    ),
    /** The OpenAPI 3.1 document, public so that callers can generate a client before they have a token. */
    openApiDocument: operation(
      {
        method: 'GET',
        path: '/api/openapi.json',
        capability: 'public',
        // Served as one string, made once: the document's own shape is checked by redocly (npm run lint:openapi).
        responses: { 200: answer.raw('application/json', 'The OpenAPI 3.1 document.') },
      },
      () => {
        openApiDocument ??= JSON.stringify(buildDocument());
        return new Response(openApiDocument, {
          headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
        });
      },
    ),
    apiReference: operation(
      { method: 'GET', path: '/api/docs', capability: 'public', responses: { 200: answer.raw('text/html', 'The API reference.') } },
      () => referencePage(),
    ),
    /**
     * Prometheus metrics for operators, like the documents outside the API document. Public to the
     * router: the scrape checks its own METRICS_TOKEN (lib/health/scrape.ts).
     */
    metrics: operation(
      {
        method: 'GET',
        path: '/metrics',
        capability: 'public',
        responses: {
          200: answer.raw('text/plain', 'The Prometheus text format.'),
          401: answer.problem('A wrong or missing METRICS_TOKEN.'),
          404: answer.problem('Metrics are off (no METRICS_TOKEN).'),
        },
      },
      (request) => scrape(request),
    ),
  };
}
