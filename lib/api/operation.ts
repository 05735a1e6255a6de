import type { z } from 'zod';
import type { Capability } from '@/lib/auth/principal';
import type { AuthenticatedHandler, PublicHandler } from '@/lib/http/route';
import type { UrlPolicy } from '@/lib/webhooks/url-policy';
import type { HttpMethod } from './paths';

/**
 * What an API operation is: its method and path, the input the wrapper validates (path params,
 * query, body), the capability a caller needs, its documentation, and its handler. Each feature
 * declares its operations with `operation(descriptor, handler)` (lib/api/operations/); the handler
 * is typed from its own descriptor, so its params, query and body are the validated ones.
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
  /** The OpenAPI operation object, less operationId; absent for the document and its HTML reference. */
  doc?: Record<string, unknown>;
};

type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
/** The `{name}` segments of a path template, as the strings the router hands a handler (decoded). */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

/** An operation's handler: the bare request when the operation is public, the caller and validated input otherwise. */
export type HandlerOf<O extends Operation> = O extends { capability: typeof PUBLIC } ? PublicHandler<O> : AuthenticatedHandler<O>;

/** An operation with its handler: what the router serves. */
export type DefinedOperation<O extends Operation = Operation> = O & { handler: HandlerOf<O> };

/** Declares one operation: its descriptor, and the handler typed from it. */
export function operation<const O extends Operation>(descriptor: O, handler: HandlerOf<O>): DefinedOperation<O> {
  return { ...descriptor, handler };
}
