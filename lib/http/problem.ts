import { ApiError } from './errors';
import type { ProblemBody } from './problem-schema';
import { replyHeaders, toResponse, type Reply } from './reply';

/** Renders an ApiError as an RFC 9457 `application/problem+json` response. */
export function problemResponse(error: ApiError, instance?: string): Response {
  return toResponse(problemReply(error, instance));
}

/** An ApiError as the RFC 9457 `application/problem+json` answer the router passes on (reply.ts). */
export function problemReply(error: ApiError, instance?: string): Reply {
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
  return {
    status: error.status,
    headers: replyHeaders({ 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...error.extra.headers }),
    text: JSON.stringify(body),
  };
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A JSON answer, never cached unless `headers` say otherwise. */
export function jsonReply(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Reply {
  return {
    status: init.status ?? 200,
    headers: replyHeaders({ 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': 'no-store', ...init.headers }),
    text: JSON.stringify(body),
  };
}
