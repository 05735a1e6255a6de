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
// 7. A kept-alive connection is never left to fail a pooled client's next request (issue 27):
//    - An answer sent before the request's body has all arrived (413 by Content-Length, 415, 401 to
//      a large body) says `Connection: close`: the rest of the body is still on its way, and left
//      unread it would stall the connection or end in a reset. That rest is read and thrown away
//      for up to LINGER_MS before the connection closes, because closing a socket with unread
//      bytes makes the kernel send a reset, which can reach the client before the answer does.
//    - Once a server stops listening (SIGTERM, lib/shutdown.ts), every answer says
//      `Connection: close` and each connection is closed as soon as it is idle, so kept-alive
//      clients neither send more requests to a stopping instance nor hold its shutdown up.
// 8. An idle kept-alive connection stays open 65 s (KEEP_ALIVE_TIMEOUT, which Next's server reads),
//    as the lean API server's does (lib/api-server/serve.ts), not Node's 5 s. A load balancer
//    (AWS ALB: 60 s idle) must be the one to close it: when the server closes first, a request the
//    balancer or a pooled client sends at that moment meets a reset (ECONNRESET, a 502 at the ALB).
import http from 'node:http';

process.env.NEXT_MANUAL_SIG_HANDLE = 'true';
process.env.KEEP_ALIVE_TIMEOUT ??= '65000';
const HTTP_SERVERS = Symbol.for('integration-console.http-servers'); // lib/shutdown.ts
const servers = (globalThis[HTTP_SERVERS] ??= new Set());

const PEER_ADDRESS_HEADER = 'x-integration-peer-address'; // lib/http/entry-headers.ts
const SENT_METHOD_HEADER = 'x-integration-sent-method'; // lib/http/entry-headers.ts
const UNREPRESENTABLE_METHODS = new Set(['TRACE']);
const SMALL_JSON_PATHS = /^\/api\/v\d+\//;

const API_ROUTE = Symbol.for('integration-console.api-route'); // scripts/serve.mjs
const OBSERVE_REQUEST = Symbol.for('integration-console.observe-request'); // lib/observability/metrics.ts
/** How long the rest of a body answered early is read and discarded before its connection closes anyway (7). */
const LINGER_MS = 5_000;

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

/** A body is announced (Content-Length above 0, or chunked); a request without one is complete with its headers. */
function hasBody(request) {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

/** Each answer decides, as its headers go out, whether its connection may be kept alive (7). */
function closingWhenUnsafe(server, request, response) {
  const writeHead = response.writeHead;
  // Every answer's headers pass here: Node's implicit headers (a first write, or end) call it too.
  response.writeHead = function writeHeadClosingWhenUnsafe(...args) {
    const early = !response.headersSent && hasBody(request) && !request.complete;
    if (early || !server.listening) response.shouldKeepAlive = false;
    // Once the answer is all written, whoever was reading the body is done with it.
    if (early) response.once('prefinish', () => request.complete || request.destroyed || discardRestThenClose(request));
    return writeHead.apply(this, args);
  };
  response.once('finish', () => {
    // An answer whose headers promised keep-alive before the signal: Node has detached it from
    // its socket by now, so the connection counts as idle and closes.
    if (!server.listening) setImmediate(() => server.closeIdleConnections());
  });
}

/**
 * The lingering close of a connection answered early (7): the socket half-closes once the answer
 * is sent, the rest of the body is read and discarded, and the socket closes when the body has all
 * arrived, the client closes its side, or LINGER_MS have passed.
 */
function discardRestThenClose(request) {
  const socket = request.socket;
  if (!socket || socket.destroyed) return;
  const close = socket.destroySoon.bind(socket); // ends, then destroys once the answer is written
  // What Node calls once the answer is sent on a connection not kept alive: only half-close here.
  socket.destroySoon = () => socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
  request.once('end', close);
  // As Node's own drain of a body nobody read (IncomingMessage#_dump): the reader that gave up
  // (a web stream left paused) stops receiving, and the bytes flow to nowhere.
  request.removeAllListeners('data');
  request.resume();
}

const createServer = http.createServer;
http.createServer = function createServerWithEntryChecks(...args) {
  const server = createServer.apply(this, withApiRoute(args));
  servers.add(server);
  server.prependListener('request', (request, response) => {
    timed(request, response);
    closingWhenUnsafe(server, request, response);
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
