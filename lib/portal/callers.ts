import 'server-only';
import { isPortalSession } from '@/lib/auth/principal';
import { readCookie } from '@/lib/auth/staff-session';
import { refuse } from '@/lib/errors/refusal';
import type { AfterPolicy, Authenticator, BeforePolicy, Callers } from '@/lib/http/callers';
import { PORTAL_COOKIE } from './cookie';
import { portalPrincipalOf, recordPortalRequest } from './service';

/**
 * The portal's callers (lib/http/callers.ts), for the API as the portal's pages call it
 * (/portal/api/…, lib/api/callers.ts): a partner with the portal session's cookie, and no one
 * else: a console session or a Bearer token sent there is not looked at.
 */
const portalSession: Authenticator = {
  name: 'portal-session',
  credential: 'cookie',
  applies: () => true,
  authenticate: (request) => portalPrincipalOf(readCookie(request, PORTAL_COOKIE)),
};

/** A read-only portal session reads, and nothing more: no change, no secret. */
const readOnlySession: BeforePolicy = ({ principal, changesOrReadsSecret }) => {
  if (isPortalSession(principal) && principal.portal.readOnly && changesOrReadsSecret)
    throw refuse.forbidden('This portal session is read-only.');
};

/** A partner's every change, and every read of a secret, in the audit trail with what was answered. */
const auditTrail: AfterPolicy = async ({ principal, operationId, params, changesOrReadsSecret }, status) => {
  if (isPortalSession(principal) && changesOrReadsSecret) await recordPortalRequest(principal, operationId, params, status);
};

export const PORTAL_CALLERS: Callers = { authenticators: [portalSession], before: [readOnlySession], after: [auditTrail] };
