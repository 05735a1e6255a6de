import 'server-only';
import { trace } from '@opentelemetry/api';
import { z } from 'zod';
import { env } from '@/lib/config/env';
import { hasCapability, type Capability } from '@/lib/auth/principal';
import { bodySettings } from '@/lib/http/body-settings';
import type { AuthenticatedHandler, BodyOf, Operation, ParamsOf, PublicHandler, QueryOf, RefusedHook } from '@/lib/http/operation';
import type { AnyAnswer } from '@/lib/http/answers';
import { log, redactError, withRequestId } from '@/lib/log';
import { customMessage, toFieldErrors } from '@/lib/validation/issues';
import { negotiateLocale, type Locale } from '@/lib/i18n/locale';
import { messagesFor, translator } from '@/lib/i18n';
import { Refusal } from '@/lib/errors/refusal';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { isDatabaseUnavailable, unavailabilityCode } from '@/lib/db/availability';
import { readJsonBody } from './body';
import { authenticateCaller, changesOrReadsSecret, type Call, type Callers, type CallersOf } from './callers';
import { checkingAnswers } from './answer-check';
import { ApiError, problemOf, problems, refusalHeaders, refusalStatus } from './errors';
import { JSON_CONTENT_TYPE, jsonReply, problemReply } from './problem';
import { headerOf, replyHeaders, replyOf, setHeader, type Reply } from './reply';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { pathnameOf } from './request-path';
import { SENT_METHOD_HEADER } from './entry-headers';
import { strictTransportSecurity } from './security-headers';

/**
 * The one wrapper every API operation is served through (lib/api/dispatch.ts binds each handler
 * with it): it authenticates the caller by the authenticators the request's path admits
 * (callers.ts: a Bearer token, the console's session, the portal's), checks the caller's
 * capability and runs the path's policies around the handler; it gives the handler size-limited JSON parsing and
 * schema validation with localized field errors; it renders the handler's declared answer; and it
 * turns every error into problem+json (or the body a contract fixes for a refusal), so no handler
 * ever leaks a stack trace or database text. In tests and development every answer is checked
 * against the operation's declared responses (answer-check.ts).
 *
 * Handlers see only a standard Request and the path's params (decoded by the router), so the same
 * handler serves Next's catch-all route and the lean API path.
 */

/** What a handler reading a body its operation does not declare gets: nothing passes. */
const NO_BODY = z.never();

/** A database restart or failover takes seconds; callers are asked to wait this long first. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** An operation's handler once bound by the wrapper: what the router calls with the path's params; its answer, as plain data (reply.ts). */
export type BoundHandler = (request: Request, params: Record<string, string>) => Promise<Reply>;

/**
 * An authenticated operation: the caller, recognised by the callers its path admits (`callersOf`,
 * the composition root's), needs the operation's capability; its query schema is applied.
 * `operationId` names it in the log line of an answer that does not match its declaration.
 */
export function apiRoute<O extends Operation & { capability: Capability }>(
  operation: O & { onRefused?: RefusedHook<O> },
  handler: AuthenticatedHandler<O>,
  callersOf: CallersOf,
  operationId = `${operation.method} ${operation.path}`,
): BoundHandler {
  return traced(
    checkingAnswers(operation, operationId, async (request, params) => {
      const locale = negotiateLocale(request.headers.get('accept-language'));
      const callers = callersOf(request);
      let call: Call | undefined;
      const response = await answerAuthenticated(request, params, locale, callers, (authenticated) => (call = authenticated));
      // Once the caller is known, the path's after-policies see the call with what was answered, a refusal included.
      if (call) for (const after of callers.after ?? []) await after(call, response.status);
      return response;
    }),
  );

  async function answerAuthenticated(
    request: Request,
    params: Record<string, string>,
    locale: Locale,
    callers: Callers,
    authenticated: (call: Call) => void,
  ): Promise<Reply> {
    try {
      const principal = await authenticateCaller(request, callers);
      const call = { request, principal, operationId, params, changesOrReadsSecret: changesOrReadsSecret(request, operation) };
      authenticated(call);
      if (!hasCapability(principal, operation.capability)) throw problems.forbidden();
      for (const before of callers.before ?? []) await before(call);
      const parsedParams = parsePathParams(operation, params, locale);
      const query = (
        operation.query ? parseOrThrow(operation.query, Object.fromEntries(new URL(request.url).searchParams), locale) : undefined
      ) as QueryOf<O>;
      try {
        return answerReply(
          await handler({ request, params: parsedParams, query, principal, locale, body: () => readBody(operation, request, locale) }),
        );
      } catch (error) {
        // The operation hears of a refusal of the request it handled (not of a fault: those are 5xx), as the problem answered.
        const { onRefused } = operation;
        const refused = onRefused && refusalProblem(error, locale);
        if (onRefused && refused && refused.status < 500) {
          const { status, type, extra } = refused;
          await onRefused({ status, type, errors: extra.errors ?? [] }, { request, params: parsedParams, principal });
        }
        throw error;
      }
    } catch (error) {
      return errorReply(error, request, locale);
    }
  }
}

/** For the few operations that say `capability: 'public'` (token endpoint, health, the API's own documents): same error handling, no authentication. */
export function publicRoute<O extends Operation>(
  operation: O,
  handler: PublicHandler<O>,
  operationId = `${operation.method} ${operation.path}`,
): BoundHandler {
  return traced(
    checkingAnswers(operation, operationId, async (request, params) => {
      const locale = negotiateLocale(request.headers.get('accept-language'));
      try {
        return answerReply(await handler(request, params as ParamsOf<O>, () => readBody(operation, request, locale)));
      } catch (error) {
        return errorReply(error, request, locale);
      }
    }),
  );
}

/** A handler's answer as HTTP: JSON (never cached, unless the answer says otherwise), no body, or the Response it built itself. */
function answerReply(answer: AnyAnswer): Reply {
  if (answer instanceof Response) return replyOf(answer);
  const reply: Reply = { status: answer.status, headers: replyHeaders(answer.headers), text: null };
  if (answer.body === undefined) return reply;
  if (headerOf(reply, 'content-type') === null) reply.headers.push(['content-type', JSON_CONTENT_TYPE]);
  if (headerOf(reply, 'cache-control') === null) reply.headers.push(['cache-control', 'no-store']);
  reply.text = JSON.stringify(answer.body);
  return reply;
}

/** The router's own answers (a path no operation has, a method the path does not serve): the same problem to every call. */
export function refusedRoute(refusal: () => ApiError): BoundHandler {
  return traced(() => Promise.resolve(problemReply(refusal())));
}

/**
 * Every API answer carries the request's id (the caller's X-Request-Id, or a new one), and every
 * log line written while it is handled names it, so one request can be followed across the logs;
 * with tracing on, so does the request's span, to find its trace from an id a caller reports.
 */
function traced(route: BoundHandler): BoundHandler {
  return (request, params) => {
    const requestId = requestIdOf(request);
    trace.getActiveSpan()?.setAttribute('app.request.id', requestId);
    const started = performance.now();
    return withRequestId(requestId, async () => {
      const reply = await route(request, params);
      setHeader(reply, REQUEST_ID_HEADER, requestId);
      const hsts = strictTransportSecurity(env().NEXTAUTH_URL);
      if (hsts) setHeader(reply, 'Strict-Transport-Security', hsts);
      // The path only: query strings are the caller's text, and bodies never reach a log.
      log.info('api.request', {
        method: request.headers.get(SENT_METHOD_HEADER) ?? request.method,
        path: pathnameOf(request),
        status: reply.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      });
      return reply;
    });
  };
}

/** The body, at most MAX_BODY_BYTES of JSON, under the operation's schema. */
async function readBody<O extends Operation>(operation: O, request: Request, locale: Locale): Promise<BodyOf<O>> {
  return parseOrThrow(bodySchemaOf(operation), await readJsonBody(request, env().MAX_BODY_BYTES), locale) as BodyOf<O>;
}

const bodySchemas = new WeakMap<Operation, z.ZodType>();

/** The operation's body schema, a factory's built once under this server's settings; a body where none is declared is refused. */
function bodySchemaOf(operation: Operation): z.ZodType {
  const declared = operation.body;
  if (!declared) return NO_BODY;
  if (typeof declared !== 'function') return declared;
  let built = bodySchemas.get(operation);
  if (!built) {
    built = declared(bodySettings());
    bodySchemas.set(operation, built);
  }
  return built;
}

/** The path's params under the operation's schema; 400 naming each bad one, with no pointer (they are not in the body). */
function parsePathParams<O extends Operation>(operation: O, params: Record<string, string>, locale: Locale): ParamsOf<O> {
  if (!operation.params) return params as ParamsOf<O>;
  const result = operation.params.safeParse(params);
  if (result.success) return result.data as ParamsOf<O>;
  const errors = toFieldErrors(result.error, params, messagesFor(locale)).map((error) => ({ ...error, pointer: '' }));
  throw problems.validation(errors, 'A path parameter is invalid.');
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, locale: Locale): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw problems.validation(toFieldErrors(result.error, input, messagesFor(locale)));
}

/**
 * A refusal as the problem it is answered with: the wrapper's own, a service's Refusal or a refused
 * field, worded in the caller's language where they say how. Undefined for anything else.
 */
function refusalProblem(error: unknown, locale: Locale): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof Refusal) {
    const { field, wording } = error.options;
    const errors = field && [
      {
        field: field.name,
        pointer: `#/${field.name}`,
        code: field.code,
        message: customMessage(field.code, messagesFor(locale), field.values),
      },
    ];
    return problemOf(error, errors, wording ? translator(locale)(wording.key, wording.values) : error.detail);
  }
  if (error instanceof FieldRejected) {
    const { field, pointer, code, detail } = error;
    return problems.validation([{ field, pointer, code, message: customMessage(code, messagesFor(locale)) }], detail);
  }
  return undefined;
}

/** The one place where errors become answers: refusals as problems, or as the body their contract fixes. */
function errorReply(error: unknown, request: Request, locale: Locale): Reply {
  if (error instanceof Refusal && error.options.body !== undefined) {
    return jsonReply(error.options.body, { status: refusalStatus(error), headers: refusalHeaders(error) });
  }
  const refused = refusalProblem(error, locale);
  if (refused) return problemReply(refused);
  const where = { method: request.method, path: pathnameOf(request) };
  // A caller that hung up mid-request is not a server fault: no one reads this answer anyway.
  if (request.signal.aborted || (error instanceof Error && error.name === 'AbortError')) {
    log.info('api.client_aborted', where);
    return problemReply(problems.internal());
  }
  // The database is restarting or unreachable: the same request will work in a moment.
  if (isDatabaseUnavailable(error)) {
    log.warn('api.database_unavailable', { ...where, code: unavailabilityCode(error) });
    return problemReply(
      problems.serviceUnavailable(DATABASE_RETRY_AFTER_SECONDS, 'The database is unavailable for a moment; try again shortly.'),
    );
  }
  log.error('api.unhandled_error', { ...where, ...redactError(error) });
  return problemReply(problems.internal());
}
