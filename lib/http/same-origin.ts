/**
 * True when a browser request was sent by a page of this same origin. Browsers send Origin on
 * every non-GET fetch; Sec-Fetch-Site is the fallback for the few that omit it. A request with
 * neither is not from a browser page we served, so it is refused.
 */
export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (origin) {
    const host = request.headers.get('x-forwarded-host') ?? request.headers.get('host');
    try {
      return host !== null && new URL(origin).host === host.split(',')[0]?.trim();
    } catch {
      return false;
    }
  }
  return request.headers.get('sec-fetch-site') === 'same-origin';
}
