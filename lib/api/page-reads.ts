import 'server-only';
import { hasCapability, type Capability, type Principal } from '@/lib/auth/principal';
import { refuse } from '@/lib/errors/refusal';
import { apiPath } from '@/lib/http/paths';
import type { PathParams } from '@/lib/http/operation';
import type { Locale } from '@/lib/i18n/locale';
import { operations, type OperationId, type Operations } from './operations';

/**
 * A page's first data, read by running the operation's own handler on the server: the handler the
 * API serves (lib/api/operations/), for the page's signed-in caller, with the operation's own
 * capability check and parameter schemas, answered as the API's JSON with its headers (the ETag a
 * save sends back). No HTTP round trip, and no second composition of the answer for the page: what
 * a page shows first is what the browser would have been answered.
 *
 * Only reads: GET operations that need a capability and hand over no secret (a signing secret is
 * shown when someone asks for it, never rendered into a page). A refusal (not found, another
 * tenant's, forbidden) is thrown as the service's Refusal, for the page to decide: a 404 page, or
 * leave it to the component that asks the API (lib/console/prefetch.ts leaves those out).
 */
export type PageReadId = {
  [K in OperationId]: Operations[K] extends { method: 'GET'; capability: Capability }
    ? Operations[K] extends { sensitive: true }
      ? never
      : K
    : never;
}[OperationId];

/** Who the page renders for: the principal its session check gave (staff, or a portal session), and the reader's language. */
export type PageCaller = { principal: Principal; locale: Locale };

/** What the read answered: the operation's status, its JSON body as the browser would parse it, and its headers. */
export type PageAnswer<K extends PageReadId> = {
  status: number;
  body: OkBody<K>;
  headers: Headers;
};

type OkBody<K extends PageReadId> =
  Extract<Awaited<ReturnType<Operations[K]['handler']>>, { status: 200 }> extends { body: infer B } ? B : never;

/** The path's parameters (as the router would hand them over) and the query string's, both still text. */
export type PageReadInput<K extends PageReadId> = {
  params: PathParams<Operations[K]['path']>;
  query?: Record<string, string>;
};

/** The host page reads are addressed to: handlers read only the request's path and query, never its origin. */
const PAGE_ORIGIN = 'http://page.internal';

export async function readForPage<K extends PageReadId>(id: K, caller: PageCaller, input: PageReadInput<K>): Promise<PageAnswer<K>> {
  const operation = operations[id];
  if (!hasCapability(caller.principal, operation.capability)) throw refuse.forbidden();
  const rawParams = input.params as Record<string, string>;
  const rawQuery = input.query ?? {};
  // The operation's own schemas; a page hands over what it validated already, so a bad value here is the page's bug.
  const params: unknown = 'params' in operation ? operation.params.parse(rawParams) : rawParams;
  const query: unknown = 'query' in operation ? operation.query.parse(rawQuery) : undefined;
  const search = new URLSearchParams(rawQuery).toString();
  const request = new Request(new URL(`${apiPath(operation, rawParams)}${search ? `?${search}` : ''}`, PAGE_ORIGIN));
  // Each handler's type follows from its own operation; here they are one of many (as in lib/api/dispatch.ts).
  const handler = operation.handler as (api: unknown) => Promise<{ status: number; body?: unknown; headers?: HeadersInit } | Response>;
  const answer = await handler({
    request,
    params,
    query,
    principal: caller.principal,
    locale: caller.locale,
    body: () => Promise.reject(new Error(`${id} is a read: it has no body`)),
  });
  if (answer instanceof Response) throw new Error(`${id} answers a raw Response, which a page cannot read`);
  return {
    status: answer.status,
    // Exactly what the API would answer: JSON, so no Date or undefined the browser's fetch would not see.
    body: JSON.parse(JSON.stringify(answer.body ?? null)) as OkBody<K>,
    headers: new Headers(answer.headers),
  };
}
