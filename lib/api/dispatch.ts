import 'server-only';
import { operations, type Operation, type OperationId } from '@/lib/api/operations';
import { PUBLIC } from '@/lib/http/operation';
import { SCOPE_OF_CAPABILITY, type Capability } from '@/lib/auth/principal';
import { problems } from '@/lib/http/errors';
import { pathnameOf } from '@/lib/http/request-path';
import { apiRoute, publicRoute, refusedRoute, type BoundHandler } from '@/lib/http/route';
import { replyHeaders, toResponse, type Reply } from '@/lib/http/reply';
import { metrics } from '@/lib/observability/metrics';
import { inApiSpan, type Answered } from '@/lib/observability/api-span';
import { callersOf, registerCallerLookups } from './callers';

/**
 * The API's one router: every request under /api (and /metrics), from Next's catch-all routes
 * (app/api/[[...path]]) and from the lean API path alike, is matched here against the operations'
 * path templates (lib/api/operations.ts) and handed to the operation's handler, bound by the
 * wrapper according to the operation (authenticated with its capability, or public). A path no
 * operation has answers 404, a method its operations lack 405 with `Allow`, OPTIONS 204 with
 * `Allow`, HEAD what GET answers without the body; all of them problem+json where they refuse.
 */
type Segment = { kind: 'static'; text: string } | { kind: 'param'; name: string };

/** An operation's bound handler, with its id: the metrics' `operation` label. */
type Served = { id: OperationId; handle: BoundHandler };

type PathRoute = {
  template: string;
  segments: Segment[];
  handlers: Map<string, Served>;
  /** Every method the path answers, for Allow: its operations', HEAD where GET is served, OPTIONS. */
  allow: string;
  refuseMethod: BoundHandler;
};

const NO_PARAMS: Record<string, string> = Object.freeze({});

/**
 * The operation's handler in the wrapper its operation calls for: authenticated with its
 * capability, or public where it says `'public'`. An operation that says neither stops the router
 * (and so the server) from starting: the types require the field, and this catches what they
 * cannot see (JavaScript, casts), rather than serve an operation open to anyone by omission.
 */
function bind(id: OperationId): BoundHandler {
  const operation: Operation = operations[id];
  // Each handler's type follows from its own operation (lib/http/operation.ts); here they are one of many.
  const handler = operations[id].handler as never;
  const { capability } = operation as { capability: unknown };
  if (capability === PUBLIC) return publicRoute(operation, handler, id);
  if (isCapability(capability)) return apiRoute({ ...operation, capability }, handler, callersOf, id);
  throw new Error(
    `API operation ${id} (${operation.method} ${operation.path}) declares no capability: give it the one its callers need, or '${PUBLIC}' if anyone may call it.`,
  );
}

function isCapability(value: unknown): value is Capability {
  return typeof value === 'string' && Object.hasOwn(SCOPE_OF_CAPABILITY, value);
}

function parseTemplate(template: string): Segment[] {
  return template
    .split('/')
    .filter(Boolean)
    .map((text) => {
      const param = /^\{(\w+)\}$/.exec(text);
      return param ? { kind: 'param', name: param[1]! } : { kind: 'static', text };
    });
}

/** Static segments before parameters, position by position, so `/x/novo` would win over `/x/{id}`. */
function compareSpecificity(a: PathRoute, b: PathRoute): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const difference = Number(a.segments[i]!.kind === 'param') - Number(b.segments[i]!.kind === 'param');
    if (difference !== 0) return difference;
  }
  return 0;
}

function compile(): PathRoute[] {
  const handlersByTemplate = new Map<string, Map<string, Served>>();
  for (const id of Object.keys(operations) as OperationId[]) {
    const { path, method } = operations[id];
    const served = handlersByTemplate.get(path) ?? new Map<string, Served>();
    handlersByTemplate.set(path, served.set(method, { id, handle: bind(id) }));
  }
  return [...handlersByTemplate]
    .map(([template, served]) => {
      // Allow in one order, whatever order the operations are declared in.
      const methods = [...served.keys()].sort();
      const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      const refuseMethod = refusedRoute(() => problems.methodNotAllowed(allow));
      return { template, segments: parseTemplate(template), handlers: served, allow, refuseMethod };
    })
    .sort(compareSpecificity);
}

registerCallerLookups();
const routes = compile();
/** Paths without parameters, by their text: most requests are answered without walking the list. */
const staticRoutes = new Map(
  routes.filter((route) => route.segments.every((segment) => segment.kind === 'static')).map((route) => [route.template, route]),
);
const refuseUnknownPath = refusedRoute(() => problems.notFound('No API operation has this path.'));
const refuseMalformedPath = refusedRoute(problems.malformedPath);

/**
 * The path template a request path matches, with its params percent-decoded (a segment is split
 * on `/` before decoding, so an encoded `%2F` never crosses segments); undefined when none does.
 * Throws URIError for a segment that does not decode.
 */
export function matchPath(pathname: string): { route: PathRoute; params: Record<string, string> } | undefined {
  // A path written exactly as a template without parameters matches it, and nothing before it (static first).
  const exact = staticRoutes.get(pathname);
  if (exact) return { route: exact, params: NO_PARAMS };
  const parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = route.segments.every((segment, i) => {
      if (segment.kind === 'static') return segment.text === parts[i];
      params[segment.name] = parts[i]!;
      return true;
    });
    if (matches) return { route, params };
  }
  return undefined;
}

/** A HEAD answer: GET's status and headers, no body. */
function withoutBody(reply: Reply): Reply {
  const { response } = reply;
  if (!response) return { ...reply, text: null };
  void response.body?.cancel();
  return {
    ...reply,
    response: new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers }),
  };
}

/**
 * Answers one API request: the operation's handler, or the router's own refusal. Every answer is
 * timed into the metrics under its operation's id; the router's refusals under `unmatched`, so a
 * scan of random paths adds no label values. With tracing on, each is a span (api-span.ts).
 */
export async function dispatch(request: Request, only?: ReadonlySet<OperationId>): Promise<Response> {
  return toResponse(await dispatchReply(request, only));
}

/**
 * dispatch's answer before it is a Response: what the lean API server writes out itself
 * (lib/api-server/serve.ts). `only`: the operations this caller's path serves (the portal's,
 * lib/api/portal-operations.ts); any other answers 404, as a path no operation has.
 */
export async function dispatchReply(request: Request, only?: ReadonlySet<OperationId>): Promise<Reply> {
  const started = performance.now();
  const { operation, reply } = await inApiSpan(request, () => answer(request, only));
  const seconds = (performance.now() - started) / 1000;
  metrics().httpDuration.observe({ operation, method: request.method, status: String(reply.status) }, seconds);
  return reply;
}

async function answer(
  request: Request,
  only?: ReadonlySet<OperationId>,
): Promise<Answered & { operation: OperationId | 'unmatched'; reply: Reply }> {
  let matched: ReturnType<typeof matchPath>;
  try {
    matched = matchPath(pathnameOf(request));
  } catch {
    // A path with a %-escape that does not decode.
    return { operation: 'unmatched', reply: await refuseMalformedPath(request, NO_PARAMS) };
  }
  if (!matched) return { operation: 'unmatched', reply: await refuseUnknownPath(request, NO_PARAMS) };
  const { route, params } = matched;
  const method = request.method;
  const served = route.handlers.get(method === 'HEAD' ? 'GET' : method);
  if (only && !(served && only.has(served.id))) return { operation: 'unmatched', reply: await refuseUnknownPath(request, NO_PARAMS) };
  if (served) {
    const reply = await served.handle(request, params);
    return { operation: served.id, template: route.template, reply: method === 'HEAD' ? withoutBody(reply) : reply };
  }
  if (method === 'OPTIONS')
    return { operation: 'unmatched', reply: { status: 204, headers: replyHeaders({ Allow: route.allow }), text: null } };
  return { operation: 'unmatched', reply: await route.refuseMethod(request, NO_PARAMS) };
}
