import 'server-only';
import { registerAccountLookups } from '@/lib/auth/account-lookups';
import { findApiClient } from '@/lib/api-clients/store';
import { bearerToken, staffSession } from '@/lib/http/authenticators';
import type { Callers, CallersOf } from '@/lib/http/callers';
import { PORTAL_CALLERS } from '@/lib/portal/callers';
import { isPortalRequest } from '@/lib/portal/surface';
import { findStaffById } from '@/lib/staff/store';

/**
 * Who may call the API, wired in one place (docs/architecture.md, "Adding a caller type"). Every
 * server command reaches the API through the one router (dispatch.ts), so Next's routes and the
 * lean API server keep the same rules.
 */

/** /api/…: API clients with a Bearer token; without an Authorization header, staff with the console's session. */
const API_CALLERS: Callers = { authenticators: [bearerToken, staffSession] };

/** The portal's path (/portal/api/…, marked by app/portal/api) admits the portal's callers alone; every other path the API's. */
export const callersOf: CallersOf = (request) => (isPortalRequest(request) ? PORTAL_CALLERS : API_CALLERS);

/**
 * The account rows authentication checks on every request (lib/auth/account-lookups.ts): a
 * revoked client's tokens and a disabled account's sessions stop working. Registered by the
 * router as it loads, and by the server's start (lib/startup.ts) for the console's pages, which
 * check the session without the router.
 */
export function registerCallerLookups(): void {
  registerAccountLookups({ apiClient: findApiClient, staffAccount: findStaffById });
}
