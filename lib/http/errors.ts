import type { Refusal, RefusalKind } from '@/lib/errors/refusal';
import type { FieldError } from '@/lib/validation/issues';

/**
 * Errors of the HTTP layer (authentication, the body, the path, the method) that the route wrapper
 * turns into RFC 9457 problem responses, and the same for a service's Refusal (`problemOf`).
 * Anything else that escapes a handler becomes a generic 500 whose details stay in the server log.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    readonly detail?: string,
    readonly extra: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      /** RFC 9457 extension members beside the standard ones (a quota's `limite`). */
      extensions?: Readonly<Record<string, string | number>>;
    } = {},
  ) {
    super(detail ?? title);
    this.name = 'ApiError';
  }
}

const problemType = (slug: string) => `urn:integration-console:problem:${slug}`;

/** RFC 6750 §3: the Bearer challenge of a 401, naming `invalid_token` when a token was sent and refused. */
const bearerChallenge = (invalidToken: boolean) => ({
  'WWW-Authenticate': invalidToken ? 'Bearer realm="integration-api", error="invalid_token"' : 'Bearer realm="integration-api"',
});

export const problems = {
  validation: (errors: FieldError[], detail = 'The request has invalid or missing fields.') =>
    new ApiError(400, problemType('validation'), 'Bad Request', detail, { errors }),
  malformedJson: () =>
    new ApiError(400, problemType('malformed-json'), 'Bad Request', 'The body is not valid JSON.', {
      errors: [{ field: '', pointer: '', code: 'malformed_json', message: 'The body is not valid JSON.' }],
    }),
  unsupportedMediaType: (detail = 'Send the body as application/json.') =>
    new ApiError(415, problemType('unsupported-media-type'), 'Unsupported Media Type', detail),
  invalidUtf8: () =>
    new ApiError(400, problemType('invalid-utf8'), 'Bad Request', 'The body is not valid UTF-8.', {
      errors: [{ field: '', pointer: '', code: 'invalid_utf8', message: 'The body is not valid UTF-8.' }],
    }),
  payloadTooLarge: (limit: number) =>
    new ApiError(413, problemType('payload-too-large'), 'Content Too Large', `The body exceeds ${limit} bytes.`),
  unauthorized: (detail = 'A valid Bearer access token is required.') =>
    new ApiError(401, problemType('unauthorized'), 'Unauthorized', detail, { headers: bearerChallenge(false) }),
  invalidToken: () =>
    new ApiError(401, problemType('invalid-token'), 'Unauthorized', 'The access token is invalid or expired.', {
      headers: bearerChallenge(true),
    }),
  forbidden: (detail = 'Your role does not allow this operation.') => new ApiError(403, problemType('forbidden'), 'Forbidden', detail),
  crossOrigin: () =>
    new ApiError(403, problemType('cross-origin'), 'Forbidden', 'State-changing requests must come from the console’s own origin.'),
  malformedPath: () =>
    new ApiError(400, problemType('malformed-path'), 'Bad Request', 'The request path is not valid percent-encoded UTF-8.'),
  notFound: (detail = 'The resource was not found.') => new ApiError(404, problemType('not-found'), 'Not Found', detail),
  methodNotAllowed: (allow: string) =>
    new ApiError(405, problemType('method-not-allowed'), 'Method Not Allowed', `This path answers ${allow} only.`, {
      headers: { Allow: allow },
    }),
  conflict: (slug: string, detail: string, retryAfterSeconds?: number) =>
    new ApiError(
      409,
      problemType(slug),
      'Conflict',
      detail,
      retryAfterSeconds === undefined ? {} : { headers: { 'Retry-After': String(retryAfterSeconds) } },
    ),
  preconditionFailed: (detail: string) => new ApiError(412, problemType('precondition-failed'), 'Precondition Failed', detail),
  unprocessable: (slug: string, detail: string) => new ApiError(422, problemType(slug), 'Unprocessable Content', detail),
  tooManyRequests: (retryAfterSeconds: number, detail: string) =>
    new ApiError(429, problemType('too-many-requests'), 'Too Many Requests', detail, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
  /** The configured back-end has no source for this operation (not a fault of the request). */
  notImplemented: (detail: string) => new ApiError(501, problemType('not-implemented'), 'Not Implemented', detail),
  serviceUnavailable: (retryAfterSeconds: number, detail: string) =>
    new ApiError(503, problemType('service-unavailable'), 'Service Unavailable', detail, {
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
  internal: () => new ApiError(500, problemType('internal'), 'Internal Server Error', 'An unexpected error occurred. It has been logged.'),
};

/** Each kind of refusal as an HTTP answer: its status, title and problem type (a coded kind's own). */
const REFUSALS: Record<RefusalKind, { status: number; title: string; slug: string }> = {
  unauthenticated: { status: 401, title: 'Unauthorized', slug: 'unauthorized' },
  'not-found': { status: 404, title: 'Not Found', slug: 'not-found' },
  forbidden: { status: 403, title: 'Forbidden', slug: 'forbidden' },
  conflict: { status: 409, title: 'Conflict', slug: 'conflict' },
  stale: { status: 412, title: 'Precondition Failed', slug: 'precondition-failed' },
  unprocessable: { status: 422, title: 'Unprocessable Content', slug: 'unprocessable' },
  throttled: { status: 429, title: 'Too Many Requests', slug: 'too-many-requests' },
  unsupported: { status: 501, title: 'Not Implemented', slug: 'not-implemented' },
  'bad-backend': { status: 502, title: 'Bad Gateway', slug: 'bad-gateway' },
  'backend-failed': { status: 500, title: 'Internal Server Error', slug: 'backend-failed' },
  unavailable: { status: 503, title: 'Service Unavailable', slug: 'service-unavailable' },
};

/** The headers a refusal's answer carries, whether a problem or the body its contract fixes. */
export function refusalHeaders(refusal: Refusal): Record<string, string> {
  const { retryAfterSeconds, code } = refusal.options;
  return {
    ...(retryAfterSeconds === undefined ? {} : { 'Retry-After': String(retryAfterSeconds) }),
    ...(refusal.kind === 'unauthenticated' ? bearerChallenge(code === 'invalid-token') : {}),
  };
}

/** The status a refusal is answered with. */
export const refusalStatus = (refusal: Refusal): number => REFUSALS[refusal.kind].status;

/**
 * A refusal as a problem. `detail`: the refusal's, worded in the caller's language where it says
 * how; `errors`: the refused field, worded likewise (the route wrapper knows the language).
 */
export function problemOf(refusal: Refusal, errors?: FieldError[], detail = refusal.detail): ApiError {
  const { status, title, slug } = REFUSALS[refusal.kind];
  const { code, extensions } = refusal.options;
  return new ApiError(status, problemType(code ?? slug), title, detail, {
    headers: refusalHeaders(refusal),
    ...(errors ? { errors } : {}),
    ...(extensions ? { extensions } : {}),
  });
}
