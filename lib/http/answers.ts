import type { z } from 'zod';

/**
 * What an operation answers, status by status: the one declaration the handler's return type, the
 * wrapper's check of every answer (lib/http/answer-check.ts) and the OpenAPI document's responses
 * (lib/openapi/document.ts) are all read from. A handler returns `{ status, body, headers }` for a
 * status it declares, and the compiler holds the body to that status's schema; refusals (a
 * service's Refusal, a bad field) are the wrapper's problem+json answers, declared by their status
 * where the operation has them of its own. The problems every operation of its kind can answer
 * (401 and 403 when it needs a capability, 400/413/415 with a body…) are not declared by hand:
 * `standardProblems` adds them.
 */
export type HeaderDoc = { description: string; schema: Record<string, unknown> };

type Described = { description: string; headers?: Record<string, HeaderDoc> };

/** A JSON body of `schema`; `orProblem`: this status may also be a problem+json refusal. */
export type JsonAnswer<S extends z.ZodType = z.ZodType> = Described & { kind: 'json'; schema: S; orProblem?: boolean };
/** No body (204). */
export type EmptyAnswer = Described & { kind: 'empty' };
/** A refusal: RFC 9457 problem+json, built by the wrapper. */
export type ProblemAnswer = Described & { kind: 'problem' };
/** Another media type the handler builds as a whole Response itself (HTML, Prometheus text): not checked. */
export type RawAnswer = Described & { kind: 'raw'; mediaType: string };

export type AnswerDeclaration = JsonAnswer | EmptyAnswer | ProblemAnswer | RawAnswer;
export type Responses = { readonly [status: number]: AnswerDeclaration };

export const answer = {
  json: <S extends z.ZodType>(schema: S, description: string, extra: Omit<Described, 'description'> & { orProblem?: boolean } = {}) =>
    ({ kind: 'json', schema, description, ...extra }) as const satisfies JsonAnswer<S>,
  empty: (description: string, extra: Omit<Described, 'description'> = {}) => ({ kind: 'empty', description, ...extra }) as const,
  problem: (description: string, extra: Omit<Described, 'description'> = {}) => ({ kind: 'problem', description, ...extra }) as const,
  raw: (mediaType: string, description: string) => ({ kind: 'raw', mediaType, description }) as const,
};

/** Headers of an answer; a list where a name repeats (Set-Cookie). */
export type AnswerHeaders = Record<string, string> | [string, string][];

/** What a handler may return for one declared status. */
type AnswerFor<Status, D> =
  D extends JsonAnswer<infer S>
    ? { status: Status; body: z.input<S>; headers?: AnswerHeaders }
    : D extends EmptyAnswer
      ? { status: Status; body?: undefined; headers?: AnswerHeaders }
      : D extends RawAnswer
        ? Response
        : never;

/** What a handler of an operation declaring `R` returns: one of its declared answers (a Response only where it declares a raw one). */
export type AnswerOf<R> = { [Status in Extract<keyof R, number>]: AnswerFor<Status, R[Status]> }[Extract<keyof R, number>];

/** An answer as the wrapper receives it, whatever the operation. */
export type AnyAnswer = { status: number; body?: unknown; headers?: AnswerHeaders } | Response;

/** What every operation of its kind may answer besides its own declarations, and why. */
export type StandardProblems = Record<number, string>;

export function standardProblems(operation: { capability: string; body?: unknown; params?: unknown; query?: unknown }): StandardProblems {
  const standard: StandardProblems = {};
  if (operation.params || operation.query) standard[400] = 'A path or query parameter is invalid; `errors` names each.';
  if (operation.body) {
    standard[400] = 'Invalid or missing fields, or malformed JSON; `errors` names each field.';
    standard[413] = 'The body is larger than the server accepts (64 KiB by default).';
    standard[415] = 'The body is not application/json.';
  }
  // Authenticating reads the database (sessions, revoked clients) or the token issuer's keys: both can be away for a moment.
  if (operation.capability !== 'public') {
    standard[401] = 'Missing, invalid or expired access token (WWW-Authenticate: Bearer).';
    standard[403] = 'The caller may not use this operation.';
    standard[503] = 'The database or the token issuer’s keys are unavailable for a moment; retry after Retry-After seconds.';
  }
  standard[500] = 'Unexpected error; details only in the server log.';
  return standard;
}
