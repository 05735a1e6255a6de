/**
 * Which API requests came through the portal's path (/portal/api/…, app/portal/api): those admit
 * the portal's callers alone (lib/api/callers.ts), never a console session or a Bearer token.
 * Marked on the Request object itself by the portal's route, so no header a caller sends can claim it.
 */
const portalRequests = new WeakSet<Request>();

export function markPortalRequest(request: Request): Request {
  portalRequests.add(request);
  return request;
}

export function isPortalRequest(request: Request): boolean {
  return portalRequests.has(request);
}
