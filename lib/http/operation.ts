import type { z } from 'zod';
import type { Capability, Principal } from '@/lib/auth/principal';
import type { FieldError } from '@/lib/validation/issues';
import type { Locale } from '@/lib/i18n/locale';
import type { UrlPolicy } from '@/lib/config/url-policy';
import type { AnswerOf, Responses } from '@/lib/http/answers';
import type { HttpMethod } from '@/lib/http/paths';

/**
 * What an API operation is: its method and path, the input the wrapper validates (path params,
 * query, body), the capability a caller needs, what it answers, its documentation, and its handler.
 * Each feature declares its operations with `operation(descriptor, handler)` (lib/api/operations/);
 * the handler is typed from its own descriptor, so its params, query and body are the validated
 * ones and what it returns is one of the answers it declares.
 */
export type { HttpMethod };

/**
 * What an operation open to anyone declares instead of a capability. Never implied by leaving the
 * capability out: an operation that forgot its capability would otherwise be open to anyone, so
 * the field is required (a compile error without it) and the router refuses to start on an
 * operation that has neither (lib/api/dispatch.ts), for callers the compiler does not see.
 */
export const PUBLIC = 'public';
/** Who may call an operation: callers allowed its capability, or anyone. */
export type Access = Capability | typeof PUBLIC;

/** The server's settings a body schema may depend on. */
export type BodySettings = { urlPolicy: UrlPolicy };

export type Operation = {
  method: HttpMethod;
  /** OpenAPI path template, e.g. /api/v2/avaliacao-saude/configuracao-web-hook/{id}. */
  path: string;
  /** What an authenticated caller must be allowed to do, or `'public'` for the few operations anyone may call. */
  capability: Access;
  /**
   * The JSON body's schema, or a factory of it where it depends on the server's settings (the
   * webhook URL policy): handlers read the body through the wrapper, which applies this (400
   * naming every bad field).
   */
  body?: z.ZodType | ((settings: BodySettings) => z.ZodType);
  /** The path's `{name}` parameters: the wrapper validates them (400 naming each) and hands the result over. */
  params?: z.ZodObject;
  /** The query string's schema: the wrapper validates it (400 naming each parameter) and hands the result over. */
  query?: z.ZodType;
  /**
   * What it answers, by status (lib/http/answers.ts): the handler's return type, the wrapper's check
   * of every answer and the OpenAPI document's responses all come from here.
   */
  responses: Responses;
  /**
   * A read that hands over a secret (the signing secret): refused to read-only portal sessions like
   * a change, and in the audit trail for every portal session (lib/portal).
   */
  sensitive?: true;
  /**
   * The OpenAPI operation object, less operationId, responses and a fixed JSON request body (the
   * document derives those); absent for the operations outside the document (the document itself,
   * its HTML reference, the metrics).
   */
  doc?: Record<string, unknown>;
};

/**
 * What the wrapper tells an operation that declares `onRefused` when its request was refused after
 * the caller was authenticated: the problem it is about to answer (the audit trail of refused changes).
 */
export type RefusedAnswer = { status: number; type: string; errors: FieldError[] };

type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
/** The `{name}` segments of a path template, as the strings the router hands a handler (decoded). */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

/** An operation's handler: the bare request when the operation is public, the caller and validated input otherwise. */
export type HandlerOf<O extends Operation> = O extends { capability: typeof PUBLIC } ? PublicHandler<O> : AuthenticatedHandler<O>;

/** What an operation does when its authenticated request was refused, before the refusal is answered. */
export type RefusedHook<O extends Operation> = (refused: RefusedAnswer, request: RefusedRequest<O>) => Promise<void>;

/** An operation with its handler: what the router serves. */
export type DefinedOperation<O extends Operation = Operation> = O & { handler: HandlerOf<O>; onRefused?: RefusedHook<O> };

/** Declares one operation: its descriptor, the handler typed from it, and what it does with a refusal. */
export function operation<const O extends Operation>(
  descriptor: O,
  handler: HandlerOf<O>,
  hooks: { onRefused?: RefusedHook<O> } = {},
): DefinedOperation<O> {
  return { ...descriptor, handler, ...hooks };
}

/** What the wrapper (lib/http/route.ts) gives a handler: the request, its validated parts, the caller. */
export type ApiRequest<P, Q = undefined, B = undefined> = {
  request: Request;
  params: P;
  /** The query string, validated with the operation's `query` schema. */
  query: Q;
  principal: Principal;
  locale: Locale;
  /** The body, at most MAX_BODY_BYTES of JSON, validated with the operation's `body` schema (400 naming every bad field). */
  body: () => Promise<B>;
};

export type QueryOf<O> = O extends { query: infer S extends z.ZodType } ? z.output<S> : undefined;
export type BodyOf<O> = O extends { body: infer B }
  ? B extends z.ZodType
    ? z.output<B>
    : B extends (settings: BodySettings) => infer S
      ? S extends z.ZodType
        ? z.output<S>
        : never
      : never
  : undefined;
export type ParamsOf<O extends Operation> = O extends { params: infer S extends z.ZodType } ? z.output<S> : PathParams<O['path']>;

type AnswerOfOperation<O extends Operation> = AnswerOf<O['responses']>;

/** What an authenticated operation's handler is given, and answers: one of the answers its operation declares. */
export type AuthenticatedHandler<O extends Operation> = (
  api: ApiRequest<ParamsOf<O>, QueryOf<O>, BodyOf<O>>,
) => Promise<AnswerOfOperation<O>>;
/** What a public operation's handler is given, and answers. */
export type PublicHandler<O extends Operation> = (
  request: Request,
  params: ParamsOf<O>,
  body: () => Promise<BodyOf<O>>,
) => AnswerOfOperation<O> | Promise<AnswerOfOperation<O>>;
/** What an operation's `onRefused` is told of the refused request. */
export type RefusedRequest<O extends Operation> = Pick<ApiRequest<ParamsOf<O>>, 'request' | 'params' | 'principal'>;
