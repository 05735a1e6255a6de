import 'server-only';
import http from 'node:http';
import { BASELINE_HEADERS } from '@/lib/http/baseline-headers.mjs';
import { problems } from '@/lib/http/errors';
import { attachNodeBody } from '@/lib/http/body';
import { problemReply } from '@/lib/http/problem';
import type { Reply } from '@/lib/http/reply';
import { log, redactError } from '@/lib/log';
import { startServer } from '@/lib/startup';
import { dispatchReply } from '@/lib/api/dispatch';
import { requestOf } from './request';

/**
 * The lean API path: the API's router (lib/api/dispatch.ts, the same one Next's catch-all route
 * calls) served from node:http without Next's request pipeline. `npm start` answers the API paths
 * with it in the same process and port as the console (scripts/serve.mjs); `npm run start:api`
 * serves it alone, for API-only deployments behind the same load balancer as the console
 * (docs/production.md). The same wrapper (lib/http/route.ts) does authentication, body limits,
 * validation, problem+json and audit; this file only turns a Node request into the Request the router
 * takes (request.ts) and writes its answer (lib/http/reply.ts) back. next-auth's routes (/api/auth) and every page stay with the Next server.
 */
/** Flat, as writeHead takes them: name, value, name, value… */
const BASELINE: string[] = BASELINE_HEADERS.flatMap(({ key, value }) => [key, value]);
const BODYLESS = new Set(['GET', 'HEAD']);

/** The Request the router takes (request.ts): its body stays in the Node stream, read by lib/http/body.ts. */
function toRequest(incoming: http.IncomingMessage): Request {
  const request = requestOf(incoming);
  if (!BODYLESS.has(request.method)) attachNodeBody(request, incoming);
  return request;
}

/**
 * Writes the answer: head and body in one write, with its length (answers are small JSON documents,
 * written from their text; a handler's own Response is read once, here). The router's headers go
 * after the baseline ones and replace a handler's Response's headers of the same name, as setting
 * them on it did.
 */
async function send(outgoing: http.ServerResponse, reply: Reply, method: string): Promise<void> {
  const { response } = reply;
  const head: string[] = [...BASELINE];
  let body: string | Buffer = '';
  if (response) {
    const replaced = new Set(reply.headers.map(([name]) => name));
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie' && name !== 'content-length' && !replaced.has(name)) head.push(name, value);
    });
    for (const cookie of response.headers.getSetCookie()) head.push('set-cookie', cookie);
    if (method === 'HEAD') void response.body?.cancel();
    else body = Buffer.from(await response.arrayBuffer());
  } else if (method !== 'HEAD') {
    body = reply.text ?? '';
  }
  for (const [name, value] of reply.headers) if (name !== 'content-length') head.push(name, value);
  if (method !== 'HEAD') head.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.length));
  outgoing.writeHead(reply.status, head);
  outgoing.end(body);
}

/** What the API's router answers; a failure there is a bug (the wrapper answers every handler error itself). */
async function answer(incoming: http.IncomingMessage): Promise<Reply> {
  let request: Request;
  try {
    request = toRequest(incoming);
  } catch {
    // A Host that is not a host name, a method a Request refuses.
    return problemReply(problems.malformedPath());
  }
  try {
    return await dispatchReply(request);
  } catch (error) {
    log.error('api_server.request_failed', redactError(error));
    return problemReply(problems.internal());
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
