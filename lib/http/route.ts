import 'server-only';
import type { z } from 'zod';
import { env } from '@/lib/config/env';
import { verifyAccessToken } from '@/lib/auth/access-tokens';
import { staffFromSession } from '@/lib/auth/staff-session';
import { hasCapability, type Capability, type Principal } from '@/lib/auth/principal';
import type { Operation } from '@/lib/api/operations';
import { log, redactError, withRequestId } from '@/lib/log';
import { customMessage, toFieldErrors } from '@/lib/validation/issues';
import { negotiateLocale, type Locale } from '@/lib/i18n/locale';
import { messagesFor } from '@/lib/i18n';
import { Refusal } from '@/lib/errors/refusal';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { isDatabaseUnavailable, unavailabilityCode } from '@/lib/db/availability';
import { readJsonBody } from './body';
import { ApiError, problemOf, problems } from './errors';
import { problemResponse } from './problem';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { isSameOrigin } from './same-origin';
import { SENT_METHOD_HEADER } from './entry-headers';
import { strictTransportSecurity } from './security-headers';

/**
 * The one wrapper every API route is built on: it authenticates (Bearer token or console session),
 * checks the caller's capability and, for cookie-authenticated changes, the origin; it gives the
 * handler size-limited JSON parsing and schema validation with localized field errors; and it turns
 * every error into problem+json, so no handler ever leaks a stack trace or database text.
 *
 * Handlers see only a standard Request and plain params, so they can be served outside Next.
 */
export type RouteContext<P> = { params: Promise<P> };

export type ApiRequest<P, Q = undefined> = {
  request: Request;
  params: P;
  /** The query string, validated with the operation's `query` schema. */
  query: Q;
  principal: Principal;
  locale: Locale;
  /** The body as JSON, at most MAX_BODY_BYTES. */
  json: () => Promise<unknown>;
  /** Validates input with a contract schema; 400 naming every bad field otherwise. */
  parse: <S extends z.ZodType>(schema: S, input: unknown) => z.output<S>;
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A database restart or failover takes seconds; callers are asked to wait this long first. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** A route handler, bound to the operation it serves (lib/api/operations.ts). */
export type OperationHandler<P> = ((request: Request, context: RouteContext<P>) => Promise<Response>) & { readonly operation: Operation };

function bind<P>(operation: Operation, handler: (request: Request, context: RouteContext<P>) => Promise<Response>): OperationHandler<P> {
  return Object.assign(handler, { operation });
}

type QueryOf<O> = O extends { query: infer S extends z.ZodType } ? z.output<S> : undefined;

/** An authenticated operation: the caller needs the operation's capability; its query schema is applied. */
export function apiRoute<
  P = Record<string, never>,
  O extends Operation & { capability: Capability } = Operation & { capability: Capability },
>(operation: O, handler: (api: ApiRequest<P, QueryOf<O>>) => Promise<Response>): OperationHandler<P> {
  return bind(
    operation,
    traced(async (request, context) => {
      const locale = negotiateLocale(request.headers.get('accept-language'));
      try {
        const principal = await authenticate(request);
        if (!hasCapability(principal, operation.capability)) throw problems.forbidden();
        const params = (await context?.params) ?? ({} as P);
        const query = (
          operation.query ? parseOrThrow(operation.query, Object.fromEntries(new URL(request.url).searchParams), locale) : undefined
        ) as QueryOf<O>;
        return await handler({
          request,
          params,
          query,
          principal,
          locale,
          json: () => readJsonBody(request, env().MAX_BODY_BYTES),
          parse: (schema, input) => parseOrThrow(schema, input, locale),
        });
      } catch (error) {
        return errorResponse(error, request, locale);
      }
    }),
  );
}

/** For the few public operations (token endpoint, health, the API's own documents): same error handling, no authentication. */
export function publicRoute<P = Record<string, never>>(
  operation: Operation,
  handler: (request: Request, params: P) => Response | Promise<Response>,
): OperationHandler<P> {
  return bind(
    operation,
    traced(async (request, context: RouteContext<P>) => {
      try {
        return await handler(request, (await context?.params) ?? ({} as P));
      } catch (error) {
        return errorResponse(error, request, negotiateLocale(request.headers.get('accept-language')));
      }
    }),
  );
}

/**
 * Every API answer carries the request's id (the caller's X-Request-Id, or a new one), and every
 * log line written while it is handled names it, so one request can be followed across the logs.
 */
function traced<C>(route: (request: Request, context: C) => Promise<Response>): (request: Request, context: C) => Promise<Response> {
  return (request, context) => {
    const requestId = requestIdOf(request);
    const started = performance.now();
    return withRequestId(requestId, async () => {
      const response = await route(request, context);
      response.headers.set(REQUEST_ID_HEADER, requestId);
      const hsts = strictTransportSecurity(env().NEXTAUTH_URL);
      if (hsts) response.headers.set('Strict-Transport-Security', hsts);
      // The path only: query strings are the caller's text, and bodies never reach a log.
      log.info('api.request', {
        method: request.headers.get(SENT_METHOD_HEADER) ?? request.method,
        path: new URL(request.url).pathname,
        status: response.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
      return response;
    });
  };
}

/** The methods a route module can export; OPTIONS is left to Next, which answers it with `Allow`. */
export const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/** Answers every call with the same problem; `allow` is set on 405 handlers. */
export type RefusingHandler = ((request: Request) => Promise<Response>) & { readonly refuses: 404 | 405; readonly allow?: string };

/**
 * The methods a route module does not serve: each answers 405 problem+json with `Allow`, instead of
 * Next's empty 405. Every route module spreads them for the methods it leaves out:
 * `export const { POST, PUT, DELETE, PATCH } = otherMethodsNotAllowed(GET);`
 * (a test checks that every module exports all of ROUTE_METHODS).
 */
export function otherMethodsNotAllowed(...served: OperationHandler<never>[]): Record<RouteMethod, RefusingHandler> {
  const methods = served.map((handler) => handler.operation.method as string);
  if (methods.includes('GET')) methods.push('HEAD');
  const allow = [...methods, 'OPTIONS'].join(', ');
  const handler = Object.assign(
    traced(() => Promise.resolve(problemResponse(problems.methodNotAllowed(allow)))),
    { refuses: 405 as const, allow },
  );
  return Object.fromEntries(ROUTE_METHODS.map((method) => [method, handler])) as Record<RouteMethod, RefusingHandler>;
}

/** Every method of a path no operation has (app/api/[[...unknown]]): 404 problem+json, not Next's HTML page. */
export function unknownApiPath(): Record<RouteMethod | 'OPTIONS', RefusingHandler> {
  const handler = Object.assign(
    traced(() => Promise.resolve(problemResponse(problems.notFound('No API operation has this path.')))),
    { refuses: 404 as const },
  );
  return Object.fromEntries([...ROUTE_METHODS, 'OPTIONS'].map((method) => [method, handler])) as Record<
    RouteMethod | 'OPTIONS',
    RefusingHandler
  >;
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, locale: Locale): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw problems.validation(toFieldErrors(result.error, input, messagesFor(locale)));
}

async function authenticate(request: Request): Promise<Principal> {
  const authorization = request.headers.get('authorization');
  if (authorization !== null) {
    const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(authorization);
    const principal = match?.[1] ? await verifyAccessToken(match[1]) : undefined;
    if (!principal) throw problems.invalidToken();
    return principal;
  }
  const staff = await staffFromSession(request);
  if (!staff) throw problems.unauthorized();
  // A cookie rides along on cross-site requests; a Bearer header never does. So only
  // cookie-authenticated changes need proof that the console itself sent them.
  if (!SAFE_METHODS.has(request.method) && !isSameOrigin(request)) throw problems.crossOrigin();
  return staff;
}

/** The one place where errors become answers, and domain field refusals get their words. */
function errorResponse(error: unknown, request: Request, locale: Locale): Response {
  if (error instanceof ApiError) return problemResponse(error);
  if (error instanceof Refusal) return problemResponse(problemOf(error));
  if (error instanceof FieldRejected) {
    const { field, pointer, code, detail } = error;
    return problemResponse(problems.validation([{ field, pointer, code, message: customMessage(code, messagesFor(locale)) }], detail));
  }
  const where = { method: request.method, path: new URL(request.url).pathname };
  // A caller that hung up mid-request is not a server fault: no one reads this answer anyway.
  if (request.signal.aborted || (error instanceof Error && error.name === 'AbortError')) {
    log.info('api.client_aborted', where);
    return problemResponse(problems.internal());
  }
  // The database is restarting or unreachable: the same request will work in a moment.
  if (isDatabaseUnavailable(error)) {
    log.warn('api.database_unavailable', { ...where, code: unavailabilityCode(error) });
    return problemResponse(
      problems.serviceUnavailable(DATABASE_RETRY_AFTER_SECONDS, 'The database is unavailable for a moment; try again shortly.'),
    );
  }
  log.error('api.unhandled_error', { ...where, ...redactError(error) });
  return problemResponse(problems.internal());
}
