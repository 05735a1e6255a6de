/**
 * The portal session's cookie (issue 30 §3). No server imports: the portal's route and pages read it.
 *
 * Path=/portal: the browser sends it to the portal's pages and its API path (/portal/api/…) and
 * never to the console or /api, so the portal cannot act as anyone there and the console never
 * sees a partner. SameSite=None and Secure so it rides along inside an iframe of another site;
 * Partitioned (CHIPS) so a browser that blocks third-party cookies still keeps it, in a jar of the
 * embedding site's alone. Chromium treats http://localhost and http://127.0.0.1 as secure, so the
 * Secure cookie works there too; any other host needs https.
 */
export const PORTAL_COOKIE = 'portal-session';
export const PORTAL_PATH = '/portal';
/** Where the portal's pages call the API: the API's own paths under /portal, with the portal's cookie. */
export const PORTAL_API_PREFIX = PORTAL_PATH;

const ATTRIBUTES = `Path=${PORTAL_PATH}; HttpOnly; Secure; SameSite=None; Partitioned`;

export function portalSessionCookie(token: string, maxAgeSeconds: number): string {
  return `${PORTAL_COOKIE}=${token}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; ${ATTRIBUTES}`;
}

export function clearedPortalSessionCookie(): string {
  return `${PORTAL_COOKIE}=; Max-Age=0; ${ATTRIBUTES}`;
}

/** True for /portal and the paths under it. */
export function isPortalPath(pathname: string): boolean {
  return pathname === PORTAL_PATH || pathname.startsWith(`${PORTAL_PATH}/`);
}
