// Loaded before Next's standalone server (scripts/serve.mjs, and `node --import` in the Dockerfile).
// It adjusts each request at the socket layer, where Next's route handlers cannot reach:
//
// 1. Route handlers see only headers, never the socket, and Next keeps a caller's own
//    X-Forwarded-For, so a caller could pick the address rate limits count against. The TCP peer's
//    address goes into a header of its own, replacing anything a caller sent under that name;
//    lib/http/client-address.ts reads it and believes X-Forwarded-For only from TRUSTED_PROXIES.
// 2. TRACE cannot be represented by the Fetch API's Request, so Next fails on it with a text/plain
//    500 and a stack trace in the log. It reaches the app as PATCH instead, a method no operation may
//    have (HttpMethod in lib/api/operations.ts), which every API route answers with 405
//    problem+json and its real `Allow`; the method sent is kept for the log. (Fetch forbids TRACK and
//    CONNECT too, but Node never delivers them as requests: its parser answers TRACK with 400, and
//    CONNECT goes to the server's 'connect' event, which closes the socket when nobody listens.)
// 3. A write to the versioned API answers one small JSON object (a few hundred bytes): compressing
//    it costs more CPU and time than the bytes it saves, so Next is not offered compression there.
//    Reads (lists, the audit trail, the OpenAPI document), pages and scripts stay compressed.
// 4. A deploy's SIGTERM is the app's to handle (lib/shutdown.ts: the delivery worker drains first),
//    so Next is told not to exit on it by itself, and every HTTP server is kept where the app's
//    shutdown finds it to stop accepting connections.
// 5. When `npm start` registered the lean API path (scripts/serve.mjs), Next's server sends the
//    API paths to it instead of through Next's own request pipeline: one process, one port, the
//    API at the lean path's speed. Without it (the container image) Next answers them itself.
// 6. The console's requests (pages, assets, sign-in) are timed here for the metrics, where the
//    status Next answered is known; the API's router times the API's itself, by operation.
import http from 'node:http';

process.env.NEXT_MANUAL_SIG_HANDLE = 'true';
const HTTP_SERVERS = Symbol.for('integration-console.http-servers'); // lib/shutdown.ts
const servers = (globalThis[HTTP_SERVERS] ??= new Set());

const PEER_ADDRESS_HEADER = 'x-integration-peer-address'; // lib/http/entry-headers.ts
const SENT_METHOD_HEADER = 'x-integration-sent-method'; // lib/http/entry-headers.ts
const UNREPRESENTABLE_METHODS = new Set(['TRACE']);
const SMALL_JSON_PATHS = /^\/api\/v\d+\//;

const API_ROUTE = Symbol.for('integration-console.api-route'); // scripts/serve.mjs
const OBSERVE_REQUEST = Symbol.for('integration-console.observe-request'); // lib/observability/metrics.ts

/** Next's request listener, with the API paths sent to the lean path first (5). Once: Next's server. */
function withApiRoute(args) {
  const route = globalThis[API_ROUTE];
  const index = args.findIndex((arg) => typeof arg === 'function');
  if (!route || index < 0) return args;
  delete globalThis[API_ROUTE];
  const next = args[index];
  const routed = [...args];
  routed[index] = function routeApiPaths(request, response) {
    if (route.serves((request.url ?? '/').split('?')[0])) return route.listener(request, response);
    return next.call(this, request, response);
  };
  return routed;
}

/** Times every request into the app's metrics (6), once they are loaded; before that, none are kept. */
function timed(request, response) {
  const started = performance.now();
  const method = request.method;
  const pathname = (request.url ?? '/').split('?')[0];
  response.once('finish', () => {
    globalThis[OBSERVE_REQUEST]?.(pathname, method, response.statusCode, (performance.now() - started) / 1000);
  });
}

const createServer = http.createServer;
http.createServer = function createServerWithEntryChecks(...args) {
  const server = createServer.apply(this, withApiRoute(args));
  servers.add(server);
  server.prependListener('request', (request, response) => {
    timed(request, response);
    request.headers[PEER_ADDRESS_HEADER] = request.socket.remoteAddress ?? '';
    delete request.headers[SENT_METHOD_HEADER];
    if (request.method !== 'GET' && SMALL_JSON_PATHS.test(request.url ?? '')) delete request.headers['accept-encoding'];
    if (UNREPRESENTABLE_METHODS.has(request.method)) {
      request.headers[SENT_METHOD_HEADER] = request.method;
      request.method = 'PATCH';
    }
  });
  return server;
};
