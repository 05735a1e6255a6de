import { ApiError } from './errors';
import type { ProblemBody } from './problem-schema';

/** Renders an ApiError as an RFC 9457 `application/problem+json` response. */
export function problemResponse(error: ApiError, instance?: string): Response {
  const body: ProblemBody = {
    type: error.type,
    title: error.title,
    status: error.status,
    ...(error.detail ? { detail: error.detail } : {}),
    ...(instance ? { instance } : {}),
    ...(error.extra.errors ? { errors: error.extra.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...error.extra.headers },
  });
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A JSON answer, never cached unless `headers` say otherwise. */
export function jsonResponse(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...init.headers },
  });
}
