import 'server-only';
import http from 'node:http';
import { BASELINE_HEADERS } from '@/lib/http/baseline-headers.mjs';
import { problems } from '@/lib/http/errors';
import { attachNodeBody } from '@/lib/http/body';
import { bodyTextOf, problemResponse } from '@/lib/http/problem';
import { log, redactError } from '@/lib/log';
import { startServer } from '@/lib/startup';
import { dispatch } from '@/lib/api/dispatch';

/**
 * The lean API path: the API's router (lib/api/dispatch.ts, the same one Next's catch-all route
 * calls) served from node:http without Next's request pipeline. `npm start` answers the API paths
 * with it in the same process and port as the console (scripts/serve.mjs); `npm run start:api`
 * serves it alone, for API-only deployments behind the same load balancer as the console
 * (docs/production.md). The same wrapper (lib/http/route.ts) does authentication, body limits,
 * validation, problem+json and audit; this file only turns a Node request into a standard Request
 * and the Response back. next-auth's routes (/api/auth) and every page stay with the Next server.
 */
const BASELINE: [string, string][] = BASELINE_HEADERS.map(({ key, value }) => [key, value]);
const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * The standard Request the router takes. Its body stays in the Node stream, handed to the body
 * reader beside it (lib/http/body.ts), rather than wrapped in a web stream; the URL is a string,
 * parsed once, by the Request.
 */
function toRequest(incoming: http.IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = incoming.method ?? 'GET';
  const base = `http://${incoming.headers.host ?? 'localhost'}`;
  const target = incoming.url ?? '/';
  // An origin-form target ('/path?query') joins the base as it is; anything else ('//x', an
  // absolute URL, '*') is resolved against it as before.
  const url = target.startsWith('/') && !target.startsWith('//') ? base + target : new URL(target, base).href;
  const request = new Request(url, { method, headers });
  if (!BODYLESS.has(method)) attachNodeBody(request, incoming);
  return request;
}

async function send(outgoing: http.ServerResponse, response: Response, method: string): Promise<void> {
  // Answers are small JSON documents: one buffer, one write, with its length. The router's own
  // responses give their text without reading it back through the Response's stream.
  const text = method === 'HEAD' ? undefined : bodyTextOf(response);
  const body =
    method === 'HEAD' ? Buffer.alloc(0) : text !== undefined ? Buffer.from(text, 'utf8') : Buffer.from(await response.arrayBuffer());
  const headers: [string, string][] = [...BASELINE];
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') headers.push([name, value]);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  if (method !== 'HEAD') headers.push(['content-length', String(body.length)]);
  outgoing.writeHead(response.status, headers.flat());
  outgoing.end(body);
}

/** What the API's router answers; a failure there is a bug (the wrapper answers every handler error itself). */
async function answer(incoming: http.IncomingMessage): Promise<Response> {
  let request: Request;
  try {
    request = toRequest(incoming);
  } catch {
    // A Host that is not a host name.
    return problemResponse(problems.malformedPath());
  }
  try {
    return await dispatch(request);
  } catch (error) {
    log.error('api_server.request_failed', redactError(error));
    return problemResponse(problems.internal());
  }
}

/**
 * The API's request listener: `npm start` puts it in front of Next for the API paths
 * (scripts/server-entry.mjs), `npm run start:api` serves it alone (serveApi).
 */
export function apiRequestListener(): http.RequestListener {
  return (incoming, outgoing) => {
    const method = incoming.method ?? 'GET';
    void (async () => {
      // No answer before the process has opened its database (lib/startup.ts): under `npm start`
      // this listener is in front of Next from the first connection on.
      await startServer();
      await send(outgoing, await answer(incoming), method);
    })().catch((error: unknown) => {
      log.error('api_server.response_failed', redactError(error));
      outgoing.destroy();
    });
  };
}

export async function serveApi(port: number, host: string): Promise<http.Server> {
  await startServer();
  const server = http.createServer(apiRequestListener());
  // Keep-alive longer than a load balancer's idle timeout (AWS ALB: 60 s), so it closes first.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  log.info('api_server.listening', { port, host });
  return server;
}
