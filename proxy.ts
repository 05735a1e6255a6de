import { NextResponse, type NextFetchEvent, type NextRequest } from 'next/server';
import { withAuth, type NextRequestWithAuth } from 'next-auth/middleware';
import { env } from '@/lib/config/env';
import { signingSecret } from '@/lib/auth/signing-secret';
import { problems } from '@/lib/http/errors';
import { problemResponse } from '@/lib/http/problem';
import { isApiPath, pathDecodes } from '@/lib/http/request-path';
import { METRICS_PATH } from '@/lib/config/served-paths.mjs';
import { isPortalPath, PORTAL_PATH } from '@/lib/portal/cookie';
import { malformedPageResponse } from '@/lib/http/malformed-page';
import { contentSecurityPolicy, CSP_HEADER, newNonce, PERMISSIONS_POLICY, strictTransportSecurity } from '@/lib/http/security-headers';

/**
 * First gate for console pages: no valid session cookie → the sign-in page. It is only the first
 * gate; every page and API route checks the session and the role again itself. Public pages
 * (sign-in, setting a password with a one-time link) need no session, so they get their security
 * headers directly.
 *
 * Every page gets its own CSP nonce and the security headers (lib/http/security-headers.ts): the
 * CSP goes on the request too, where Next finds the nonce for its scripts.
 *
 * API routes answer 401/403 as problem+json themselves, so `authorized` lets every /api path
 * through without a session. The proxy sees API paths only when they carry a `%` (matcher below):
 * Next decodes dynamic params before any route code runs and answers a path that does not decode
 * (`/…/configuracao-web-hook/%E0%A4%A`) with its own text/plain 500, so that case becomes a 400
 * here, for pages as for the API (refuseMalformedPath). Every other API request skips the proxy.
 *
 * The secret may be generated on first start and kept in DATA_DIR, so it is read per request
 * (a getter) rather than when this module loads. Proxy runs on the Node.js runtime in Next 16.
 */
const SIGN_IN_PATH = '/sign-in';
/**
 * Pages for people without a session: signing in, setting a password with a one-time link, and
 * confirming a technical contact with the link e-mailed to it.
 */
const PUBLIC_PAGES = new Set([SIGN_IN_PATH, '/definir-senha', '/confirmar-contato']);
const PORTAL_API_PATH = `${PORTAL_PATH}/api/`;

/** The headers every page answers with; `policy` is also what Next reads the nonce from. */
function pageHeaders(frameAncestors: readonly string[]): { policy: string; headers: Headers } {
  const policy = contentSecurityPolicy(newNonce(), process.env.NODE_ENV === 'development', frameAncestors);
  const headers = new Headers({ [CSP_HEADER]: policy, 'Permissions-Policy': PERMISSIONS_POLICY });
  const hsts = strictTransportSecurity(env().NEXTAUTH_URL);
  if (hsts) headers.set('Strict-Transport-Security', hsts);
  return { policy, headers };
}

function withSecurityHeaders(request: NextRequest, frameAncestors: readonly string[] = []): NextResponse {
  const { policy, headers } = pageHeaders(frameAncestors);
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(CSP_HEADER, policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  headers.forEach((value, name) => response.headers.set(name, value));
  return response;
}

/**
 * A path with a %-escape that does not decode: an API path gets its problem+json 400, a page a small
 * 400 page with the way back to its own start (the portal's or the console's).
 */
function refuseMalformedPath(request: NextRequest): Response {
  const { pathname } = request.nextUrl;
  if (isApiPath(pathname) || pathname.startsWith(PORTAL_API_PATH)) return problemResponse(problems.malformedPath());
  const portal = isPortalPath(pathname);
  return malformedPageResponse(request, portal ? PORTAL_PATH : '/', pageHeaders(portal ? env().PORTAL_FRAME_ANCESTORS : []).headers);
}

const requireSession = withAuth((request) => (isApiPath(request.nextUrl.pathname) ? NextResponse.next() : withSecurityHeaders(request)), {
  pages: { signIn: SIGN_IN_PATH },
  get secret() {
    return signingSecret();
  },
  callbacks: {
    authorized: ({ req, token }) => isApiPath(req.nextUrl.pathname) || token !== null,
  },
});

export default function proxy(request: NextRequest, event: NextFetchEvent) {
  if (!pathDecodes(request.nextUrl.pathname)) return refuseMalformedPath(request);
  // Prometheus' scrape: the router answers it with its own Bearer check (lib/health/scrape.ts), never a sign-in redirect.
  if (request.nextUrl.pathname === METRICS_PATH) return NextResponse.next();
  if (PUBLIC_PAGES.has(request.nextUrl.pathname)) return withSecurityHeaders(request);
  // The partner portal: its own session (its pages and its API path check the portal's cookie),
  // never a staff sign-in, and framed only by the origins PORTAL_FRAME_ANCESTORS names. Its API
  // path answers its own headers, as /api does.
  if (isPortalPath(request.nextUrl.pathname)) {
    if (request.nextUrl.pathname.startsWith(PORTAL_API_PATH)) return NextResponse.next();
    return withSecurityHeaders(request, env().PORTAL_FRAME_ANCESTORS);
  }
  return requireSession(request as NextRequestWithAuth, event);
}

export const config = {
  // Public files: Next's assets, icons and vendor bundles (the API reference's script).
  matcher: ['/((?!api/|_next/|vendor/|favicon.ico|icon.svg).*)', '/api/(.*%.*)'],
};
