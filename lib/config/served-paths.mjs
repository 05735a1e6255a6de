// Which paths the lean API path serves: /metrics and every /api path but the console's sign-in
// (next-auth's own routes, app/api/auth). `npm start` sends requests by this rule
// (scripts/serve.mjs), and so does a load balancer in front of `npm run start:api` and `npm start` (docs/production.md); the e2e run
// against the lean server routes through it too.
export const NEXT_ONLY_API_PREFIXES = ['/api/auth'];

/** Prometheus' scrape path (lib/health/scrape.ts), outside /api like every exporter's. */
export const METRICS_PATH = '/metrics';

/** @param {string} pathname */
export function servedByApiServer(pathname) {
  if (pathname === METRICS_PATH) return true;
  return pathname.startsWith('/api/') && !NEXT_ONLY_API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** The lean API path's bundle, written by scripts/build-api-server.mjs, mounted by scripts/serve.mjs and served alone by scripts/serve-api.mjs. */
export const API_SERVER_BUNDLE = ['.next', 'api-server', 'server.mjs'];
