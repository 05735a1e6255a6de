import { ApiError } from './errors';
import type { ProblemBody } from './problem-schema';

/**
 * The JSON text of each response made here, for a server that sends it itself (the lean API server,
 * lib/api-server/serve.ts): reading it back through the Response's stream cost more than making it.
 */
const bodyTexts = new WeakMap<Response, string>();

/** The text a response made here carries, undefined for any other response. */
export function bodyTextOf(response: Response): string | undefined {
  return bodyTexts.get(response);
}

function textResponse(text: string, init: ResponseInit): Response {
  const response = new Response(text, init);
  bodyTexts.set(response, text);
  return response;
}

/** Renders an ApiError as an RFC 9457 `application/problem+json` response. */
export function problemResponse(error: ApiError, instance?: string): Response {
  const body: ProblemBody = {
    // Extension members first: they never shadow a standard member.
    ...error.extra.extensions,
    type: error.type,
    title: error.title,
    status: error.status,
    ...(error.detail ? { detail: error.detail } : {}),
    ...(instance ? { instance } : {}),
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
  };
  return textResponse(JSON.stringify(body), {
    status: error.status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...error.extra.headers },
  });
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A JSON answer, never cached unless `headers` say otherwise. */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return textResponse(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...init.headers },
  });
}
