import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * The caller's (or the load balancer's) X-Request-Id when it is a sane one: 1–128 visible ASCII
 * characters, so it can go into a log line and a header as it is. Anything else gets a new id.
 */
export function requestIdOf(request: Request): string {
  const given = request.headers.get(REQUEST_ID_HEADER);
  return given !== null && /^[\x21-\x7E]{1,128}$/.test(given) ? given : randomUUID();
}
