import { NextResponse } from 'next/server';
import { withAuth } from 'next-auth/middleware';
import { signingSecret } from '@/lib/auth/signing-secret';
import { problems } from '@/lib/http/errors';
import { problemResponse } from '@/lib/http/problem';
import { isApiPath, pathDecodes } from '@/lib/http/request-path';

/**
 * First gate for console pages: no valid session cookie → the sign-in page. It is only the first
 * gate; every page and API route checks the session and the role again itself.
 *
 * API routes answer 401/403 as problem+json themselves, so `authorized` lets every /api path
 * through without a session. The proxy sees API paths only when they carry a `%` (matcher below):
 * Next decodes dynamic params before any route code runs and answers a path that does not decode
 * (`/…/configuracao-web-hook/%E0%A4%A`) with its own text/plain 500, so that case becomes a 400
 * problem here. Every other API request skips the proxy entirely.
 *
 * The secret may be generated on first start and kept in DATA_DIR, so it is read per request
 * (a getter) rather than when this module loads. Proxy runs on the Node.js runtime in Next 16.
 */
export default withAuth(
  (request) => {
    if (isApiPath(request.nextUrl.pathname) && !pathDecodes(request.nextUrl.pathname)) {
      return problemResponse(problems.malformedPath());
    }
    return NextResponse.next();
  },
  {
    pages: { signIn: '/sign-in' },
    get secret() {
      return signingSecret();
    },
    callbacks: {
      authorized: ({ req, token }) => isApiPath(req.nextUrl.pathname) || token !== null,
    },
  },
);

export const config = {
  // Public files: Next's assets, the sign-in page, icons and vendor bundles (the API reference's script).
  matcher: ['/((?!api/|_next/|vendor/|sign-in|favicon.ico|icon.svg).*)', '/api/(.*%.*)'],
};
