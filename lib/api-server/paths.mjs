// Which /api paths the lean API server (`npm run start:api`) serves: all but Next's own routes,
// the console's sign-in (next-auth) and the API reference page. A load balancer in front of both
// servers routes by this rule (docs/production.md); scripts/build-api-server.mjs leaves these
// route modules out, and the e2e runs against the lean server route through it too.
export const NEXT_ONLY_API_PREFIXES = ['/api/auth', '/api/docs'];

/** @param {string} pathname */
export function servedByApiServer(pathname) {
  return pathname.startsWith('/api/') && !NEXT_ONLY_API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** The lean API server's bundle, written by scripts/build-api-server.mjs and run by scripts/serve-api.mjs. */
export const API_SERVER_BUNDLE = ['.next', 'api-server', 'server.mjs'];
