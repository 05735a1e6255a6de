/**
 * Which API requests came through the portal's path (/portal/api/…, app/portal/api): the router
 * authenticates those by the portal's cookie alone, never by a console session or a Bearer token.
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
