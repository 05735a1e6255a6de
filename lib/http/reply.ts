import type { AnswerHeaders } from './answers';

/**
 * An API answer as the wrapper (route.ts) and the router (lib/api/dispatch.ts) pass it along: plain
 * data, turned into what goes out only at the edge. Next's routes get a Response (toResponse); the
 * lean API server writes it to the socket as it is (lib/api-server/serve.ts). Building a standard
 * Response for every answer (its Headers, its body stream), then setting headers on it and reading
 * them back out, cost the lean path more CPU per reservation than the router and the wrapper's own work.
 */
export type Reply = {
  status: number;
  /** Names in lowercase, each once (Set-Cookie aside), as a Headers would hold them. */
  headers: [string, string][];
  /** The body's text (JSON, problem+json); null for none. */
  text: string | null;
  /** A Response a handler built itself (a raw answer: HTML, Prometheus text), sent with `headers` set on it. */
  response?: Response;
};

/** `headers` as a Reply holds them: lowercase names; a repeated name joined with `, ` (Set-Cookie kept apart), as Headers does. */
export function replyHeaders(...sources: (AnswerHeaders | undefined)[]): [string, string][] {
  const headers: [string, string][] = [];
  for (const source of sources) {
    if (!source) continue;
    for (const [name, value] of Array.isArray(source) ? source : Object.entries(source)) appendHeader(headers, name, value);
  }
  return headers;
}

function appendHeader(headers: [string, string][], name: string, value: string): void {
  const lower = name.toLowerCase();
  const existing = lower === 'set-cookie' ? undefined : headers.find(([other]) => other === lower);
  if (existing) existing[1] = `${existing[1]}, ${value}`;
  else headers.push([lower, value]);
}

/** The value of `name` in `reply`'s own headers (not a handler's Response's), null when absent. */
export function headerOf(reply: Reply, name: string): string | null {
  const lower = name.toLowerCase();
  return reply.headers.find(([other]) => other === lower)?.[1] ?? null;
}

/** Sets `name` to `value`, replacing any value it had, as Headers#set does. */
export function setHeader(reply: Reply, name: string, value: string): void {
  const lower = name.toLowerCase();
  reply.headers = reply.headers.filter(([other]) => other !== lower);
  reply.headers.push([lower, value]);
}

/** A handler's own Response, as a Reply. */
export function replyOf(response: Response): Reply {
  return { status: response.status, headers: [], text: null, response };
}

/** A Reply as a standard Response (Next's routes, tests). */
export function toResponse(reply: Reply): Response {
  if (reply.response) {
    for (const [name, value] of reply.headers) reply.response.headers.set(name, value);
    return reply.response;
  }
  const headers = new Headers();
  for (const [name, value] of reply.headers) headers.append(name, value);
  return new Response(reply.text, { status: reply.status, headers });
}
