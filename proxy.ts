import { withAuth } from 'next-auth/middleware';
import { signingSecret } from '@/lib/auth/signing-secret';

/**
 * First gate for console pages: no valid session cookie → the sign-in page. It is only the first
 * gate; every page and API route checks the session and the role again itself. API routes are not
 * matched: they answer 401/403 as problem+json instead of redirecting.
 *
 * The secret may be generated on first start and kept in DATA_DIR, so it is read per request
 * (a getter) rather than when this module loads. Proxy runs on the Node.js runtime in Next 16.
 */
export default withAuth({
  pages: { signIn: '/sign-in' },
  get secret() {
    return signingSecret();
  },
});

export const config = {
  matcher: ['/((?!api/|_next/|sign-in|favicon.ico|icon.svg).*)'],
};
