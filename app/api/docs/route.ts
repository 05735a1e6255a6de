import { operations } from '@/lib/api/operations';
import { ApiReference } from '@scalar/nextjs-api-reference';
import { otherMethodsNotAllowed, publicRoute } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

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
  // Scalar's hosted extras (developer toolbar, MCP generation) call out to its cloud: not here.
  showDeveloperTools: 'never',
  mcp: { disabled: true },
});

export const GET = publicRoute(operations.apiReference, () => reference());

// Every other method: 405 problem+json with Allow (lib/http/route.ts).
export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);
