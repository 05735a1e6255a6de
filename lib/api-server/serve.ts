import 'server-only';
import http from 'node:http';
import { Readable } from 'node:stream';
import { BASELINE_HEADERS } from '@/lib/http/baseline-headers.mjs';
import { problems } from '@/lib/http/errors';
import { problemResponse } from '@/lib/http/problem';
import { log, redactError } from '@/lib/log';
import { startServer } from '@/lib/startup';
import { RouteTable, type RouteEntry, type RouteModule } from './route-table';

/**
 * The lean API path: the app's own API route modules, unchanged, served from node:http without
 * Next's request pipeline. `npm start` answers the API paths with it in the same process and port
 * as the console (scripts/serve.mjs); `npm run start:api` serves it alone, for API-only
 * deployments behind the same load balancer as the console (docs/production.md). The same wrapper (lib/http/route.ts) does
 * authentication, body limits, validation, problem+json and audit; this file only turns a Node
 * request into a standard Request and the Response back. Next's own routes (/api/auth, /api/docs)
 * and every page stay with the Next server.
 */
const BASELINE: [string, string][] = BASELINE_HEADERS.map(({ key, value }) => [key, value]);
const BODYLESS = new Set(['GET', 'HEAD']);

function toRequest(incoming: http.IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = incoming.method ?? 'GET';
  return new Request(url, {
    method,
    headers,
    ...(BODYLESS.has(method) ? {} : { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: 'half' }),
  });
}

async function send(outgoing: http.ServerResponse, response: Response, method: string): Promise<void> {
  // Answers are small JSON documents: one buffer, one write, with its length.
  const body = method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(await response.arrayBuffer());
  const headers: [string, string][] = [...BASELINE];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') headers.push([name, value]);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  if (method !== 'HEAD') headers.push(['content-length', String(body.length)]);
  outgoing.writeHead(response.status, headers.flat());
  outgoing.end(body);
}

/** The methods a module serves: its refusing handlers (otherMethodsNotAllowed) know them. */
function allowOf(module: RouteModule): string {
  const handlers = Object.entries(module);
  const refusing = handlers.find(([, handler]) => typeof (handler as { allow?: unknown }).allow === 'string');
  if (refusing) return String((refusing[1] as { allow?: unknown }).allow);
  return handlers
    .filter(([, handler]) => typeof handler === 'function' && !('refuses' in handler))
    .map(([method]) => method)
    .join(', ');
}

/** What the route module answers, or the 400/404/405 the path or method gets. */
async function answer(table: RouteTable, incoming: http.IncomingMessage, method: string): Promise<Response> {
  let url: URL;
  let matched: ReturnType<RouteTable['match']>;
  try {
    url = new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? 'localhost'}`);
    matched = table.match(url.pathname);
  } catch {
    // A Host that is not a host name, or a path with a %-escape that does not decode.
    return problemResponse(problems.malformedPath());
  }
  if (!matched) return problemResponse(problems.notFound('No API operation has this path.'));
  // Route modules export no HEAD: Next answers it with GET's handler (the body dropped in send), and so does this server.
  const handler = matched.module[method] ?? (method === 'HEAD' ? matched.module.GET : undefined);
  if (handler) {
    try {
      return await handler(toRequest(incoming, url), { params: Promise.resolve(matched.params) });
    } catch (error) {
      // The route wrapper answers every handler error itself; reaching here is a bug in this file.
      log.error('api_server.request_failed', redactError(error));
      return problemResponse(problems.internal());
    }
  }
  if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: allowOf(matched.module) } });
  return problemResponse(problems.methodNotAllowed(allowOf(matched.module)));
}

/**
 * The API's request listener: `npm start` puts it in front of Next for the API paths
 * (scripts/server-entry.mjs), `npm run start:api` serves it alone (serveApi).
 */
export function apiRequestListener(entries: RouteEntry[]): http.RequestListener {
  const table = new RouteTable(entries);
  return (incoming, outgoing) => {
    const method = incoming.method ?? 'GET';
    void (async () => {
      await send(outgoing, await answer(table, incoming, method), method);
    })().catch((error: unknown) => {
      log.error('api_server.response_failed', redactError(error));
      outgoing.destroy();
    });
  };
}

export async function serveApi(entries: RouteEntry[], port: number, host: string): Promise<http.Server> {
  await startServer();
  const server = http.createServer(apiRequestListener(entries));
  // Keep-alive longer than a load balancer's idle timeout (AWS ALB: 60 s), so it closes first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  log.info('api_server.listening', { port, host });
  return server;
}
