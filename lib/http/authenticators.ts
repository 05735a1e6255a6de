import 'server-only';
import { verifyAccessToken } from '@/lib/auth/access-tokens';
import { staffFromSession } from '@/lib/auth/staff-session';
import { metrics } from '@/lib/observability/metrics';
import type { Authenticator } from './callers';
import { problems } from './errors';

/**
 * The API's own callers (callers.ts): API clients with a Bearer token (the embedded issuer's or
 * the integration platform's) and staff with the console's session cookie. The portal's are the
 * portal's (lib/portal/callers.ts).
 */

const BEARER = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

/** Any Authorization header is a Bearer token's attempt: one that is not a valid token is refused as such, never tried as a session. */
export const bearerToken: Authenticator = {
  name: 'bearer-token',
  credential: 'header',
  applies: (request) => request.headers.get('authorization') !== null,
  async authenticate(request) {
    const token = BEARER.exec(request.headers.get('authorization') ?? '')?.[1];
    const principal = token ? await verifyAccessToken(token) : undefined;
    if (!principal) {
      metrics().authRefusals.inc({ reason: 'invalid_token' });
      throw problems.invalidToken();
    }
    return principal;
  },
};

/** The console's session cookie (next-auth's), for a request with no Authorization header. */
export const staffSession: Authenticator = {
  name: 'staff-session',
  credential: 'cookie',
  applies: () => true,
  authenticate: staffFromSession,
};
