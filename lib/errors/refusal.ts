import type { MessageKey } from '@/lib/i18n/messages/pt-BR';

/**
 * Why a service refuses a request, in the domain's words. Services and adapters throw these and
 * know nothing of HTTP; the API's edge (lib/http/errors.ts, `problemOf`) maps each kind to one
 * status and an RFC 9457 problem, in one table (or, where a contract fixes the refusal's body, that
 * body). A refused field is a FieldRejected (lib/validation/field-rejected.ts), worded in the
 * caller's language. Nothing else reaches an API answer: no module outside lib/http throws the
 * HTTP layer's own errors (lib/errors/one-error-path.test.ts).
 */
export type RefusalKind =
  /** The caller's credentials are missing, invalid or no longer valid (`code` 'invalid-token' for a bad token). */
  | 'unauthenticated'
  /** Nothing the caller may see by that id. */
  | 'not-found'
  /** The caller may see it but not do this. */
  | 'forbidden'
  /** The state of things does not allow it now (`code` says which conflict). */
  | 'conflict'
  /** The caller's copy is out of date (If-Match). */
  | 'stale'
  /** Well-formed, but cannot be acted on (`code` says why). */
  | 'unprocessable'
  /** Too many attempts; try again after `retryAfterSeconds`. */
  | 'throttled'
  /** The configured back-end has no source for this (not the request's fault). */
  | 'unsupported'
  /** A back-end answered outside its contract. */
  | 'bad-backend'
  /** A back-end failed to carry the request out: its own error, or it could not be asked (`retryAfterSeconds` when a retry may work). */
  | 'backend-failed'
  /** A back-end cannot be reached now; try again after `retryAfterSeconds`. */
  | 'unavailable';

export type RefusalOptions = {
  /** A stable code for the refusal (a conflict's kind, say), part of the problem's type. */
  code?: string;
  retryAfterSeconds?: number;
  /** The field the refusal is about, named in the problem's `errors` with a message worded in the caller's language. */
  field?: RefusedField;
  /** `detail` in the caller's language: a message of the catalogue (lib/i18n) with its values; `detail` is its English. */
  wording?: { key: MessageKey; values?: Record<string, string | number> };
  /**
   * The body a contract fixes for this refusal (the reservation's four fields with CODIGO_P 9, §7.2):
   * answered as JSON as it is, with the kind's status, instead of a problem.
   */
  body?: unknown;
  /**
   * Machine-readable facts of the refusal, answered beside `detail` as RFC 9457 extension members
   * (a quota's `limite`, say), so a caller need not parse the sentence.
   */
  extensions?: Readonly<Record<string, string | number>>;
};

/** A field named by a refusal other than a 400: its name and the message code (validation.code.*) with the message's values. */
export type RefusedField = { name: string; code: string; values?: Record<string, string | number> };

export class Refusal extends Error {
  constructor(
    readonly kind: RefusalKind,
    /** For the caller: what was refused and what to do. In English, as every problem `detail`. */
    readonly detail: string,
    readonly options: RefusalOptions = {},
  ) {
    super(detail);
    this.name = 'Refusal';
  }
}

/** The refusals services throw, by kind. */
export const refuse = {
  unauthenticated: (detail = 'A valid Bearer access token is required.') => new Refusal('unauthenticated', detail),
  invalidToken: (detail = 'The access token is invalid or expired.') => new Refusal('unauthenticated', detail, { code: 'invalid-token' }),
  notFound: (detail = 'The resource was not found.') => new Refusal('not-found', detail),
  forbidden: (detail = 'Your role does not allow this operation.') => new Refusal('forbidden', detail),
  conflict: (code: string, detail: string, retryAfterSeconds?: number) => new Refusal('conflict', detail, { code, retryAfterSeconds }),
  stale: (detail: string) => new Refusal('stale', detail),
  unprocessable: (code: string, detail: string) => new Refusal('unprocessable', detail, { code }),
  throttled: (retryAfterSeconds: number, detail: string, field?: RefusedField) =>
    new Refusal('throttled', detail, { retryAfterSeconds, ...(field ? { field } : {}) }),
  unsupported: (detail: string) => new Refusal('unsupported', detail),
  badBackend: (detail: string) => new Refusal('bad-backend', detail),
  /** `body`: what the contract answers for the failure, when it fixes one. */
  backendFailed: (detail: string, options: { body?: unknown; retryAfterSeconds?: number } = {}) =>
    new Refusal('backend-failed', detail, options),
  unavailable: (retryAfterSeconds: number, detail: string) => new Refusal('unavailable', detail, { retryAfterSeconds }),
  /**
   * A count quota is full (issue 27): the collection's present state refuses one more, whatever
   * the time, until the caller removes something. A conflict (409), not a rate (429): waiting fixes nothing.
   */
  overQuota: (code: string, detail: string, extensions: RefusalOptions['extensions']) =>
    new Refusal('conflict', detail, { code, extensions }),
  /** A rate limit is reached (issue 27): the same request works again after `retryAfterSeconds`. */
  rateLimited: (code: string, retryAfterSeconds: number, detail: string, extensions: RefusalOptions['extensions']) =>
    new Refusal('throttled', detail, { code, retryAfterSeconds, extensions }),
};
