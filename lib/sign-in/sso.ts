import 'server-only';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import { z } from 'zod';
import { getDb } from '@/lib/db/handle';
import { findStaffByEmail, findStaffById, findStaffBySsoSubject, insertStaff, NO_PASSWORD, updateStaffRow } from '@/lib/staff/store';
import { recordAudit } from '@/lib/audit/store';
import { log } from '@/lib/log';
import { hasControlCharacters, hasInvisibleCharacters } from '@/lib/validation/text';
import { claimAt } from '@/lib/auth/claim-path';
import { mappedRoles } from '@/lib/auth/role-map';
import type { SsoConfig } from '@/lib/config/sso';
import { parseRoles } from '@/lib/auth/staff-session';

/**
 * Staff sign-in through the hospital's OpenID Connect provider (issue 11 §4): authorization code
 * flow with PKCE, state and nonce, the ID token validated by next-auth (openid-client). The
 * provider decides who the person is and which of its roles they hold; OIDC_ROLE_MAP turns those
 * into console roles, written to the staff account at every sign-in (the provider is the source of
 * truth: a role taken away there is gone at the next sign-in). An account disabled in the console
 * stays disabled. Sessions are the same as for passwords: `sub` is the staff account's id, with
 * the account's session version; linking a password account ends the sessions its password opened.
 */
export const SSO_PROVIDER_ID = 'oidc';

/** Why a provider's user gets no session; the sign-in page explains each (`?error=`). */
export type SsoRefusal = 'SsoNoRole' | 'SsoNoEmail' | 'SsoDisabled' | 'SsoConflict' | 'SsoUnverifiedEmail';

type SsoUser = { id: string; name: string; email: string; sessionVersion?: number; refusal?: SsoRefusal };

export function ssoProvider(config: SsoConfig): OAuthConfig<Record<string, unknown>> {
  return {
    id: SSO_PROVIDER_ID,
    name: config.displayName,
    type: 'oauth',
    wellKnown: `${config.issuer}/.well-known/openid-configuration`,
    issuer: config.issuer,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    idToken: true,
    checks: ['pkce', 'state', 'nonce'],
    authorization: { params: { scope: config.scopes } },
    // Runs after next-auth validated the ID token; its claims are the profile.
    profile: (claims) => staffForClaims(config, claims),
  };
}

/** next-auth's signIn callback: a refused user goes back to the sign-in page with the reason. */
export function ssoSignInVerdict(user: object): true | string {
  const refusal = (user as Partial<SsoUser>).refusal;
  return refusal ? `/sign-in?error=${refusal}` : true;
}

const emailSchema = z.email().max(254);

function asEmail(candidate: unknown): string | undefined {
  return typeof candidate === 'string' && emailSchema.safeParse(candidate).success ? candidate.toLowerCase() : undefined;
}

/** The address a new account is made with. Entra ID often has no `email` for work accounts; its preferred_username is the UPN. */
function emailOf(claims: Record<string, unknown>): string | undefined {
  return asEmail(claims.email) ?? asEmail(claims.preferred_username);
}

/**
 * The address the provider vouches for, the only one that may take over an existing console
 * account: `email` with OIDC's `email_verified: true`, or Entra ID's `xms_edov: true` (the domain's
 * owner verified it). Without this check, anyone able to set their own e-mail at the provider to
 * a staff member's address would sign in as that staff member ("nOAuth").
 */
function verifiedEmailOf(claims: Record<string, unknown>): string | undefined {
  return claims.email_verified === true || claims.xms_edov === true ? asEmail(claims.email) : undefined;
}

/** The provider's `name`, unless it carries characters the staff form would refuse (control, invisible). */
function displayNameOf(claims: Record<string, unknown>): string | undefined {
  const name = typeof claims.name === 'string' ? claims.name.trim().slice(0, 200) : '';
  return name && !hasControlCharacters(name) && !hasInvisibleCharacters(name) ? name : undefined;
}

async function staffForClaims(config: SsoConfig, claims: Record<string, unknown>): Promise<SsoUser> {
  const subject = `${config.issuer}#${String(claims.sub)}`;
  const roles = mappedRoles(claimAt(claims, config.rolesClaim), config.roleMap);
  const email = emailOf(claims);
  const name = displayNameOf(claims) || email || 'SSO';
  const refuse = (refusal: SsoRefusal): SsoUser => {
    // The subject's hash would do as well; the issuer and refusal are what an operator needs.
    log.info('auth.sso_refused', { refusal, rolesClaimPresent: claimAt(claims, config.rolesClaim) !== undefined });
    return { id: subject, name, email: email ?? '', refusal };
  };
  if (roles.length === 0) return refuse('SsoNoRole');
  if (!email) return refuse('SsoNoEmail');

  const db = await getDb();
  const bySubject = await findStaffBySsoSubject(db, subject);
  const sameEmail = bySubject ? undefined : await findStaffByEmail(db, email);
  if (sameEmail?.ssoSubject) return refuse('SsoConflict');
  // A password account with the same address becomes this person's SSO account only when the
  // provider vouches for the address.
  if (sameEmail && email !== verifiedEmailOf(claims)) return refuse('SsoUnverifiedEmail');
  const row = bySubject ?? sameEmail;
  if (row && row.disabledAt !== null) return refuse('SsoDisabled');

  const id = row ? row.id : crypto.randomUUID();
  const principal = { kind: 'staff' as const, userId: id, email, name, roles };
  const sessionVersion = await db.transaction(async (trx) => {
    if (!row) {
      await insertStaff(trx, { id, email, name, roles: roles.join(','), createdAt: Date.now(), ssoSubject: subject });
      await recordAudit(trx, {
        principal,
        action: 'staff.sso_create',
        target: `staff:${email}`,
        outcome: 'created',
        after: { perfis: roles },
      });
      return 0;
    }
    const before = parseRoles(row.roles);
    const changed = before.join(',') !== roles.join(',');
    // The provider now decides who gets in: an old password (or unused link) must not outlive
    // the person's account there, nor the sessions it opened (at linking, when it is voided).
    const linking = !row.ssoSubject;
    await updateStaffRow(trx, id, {
      roles: roles.join(','),
      ssoSubject: subject,
      name,
      passwordHash: NO_PASSWORD,
      passwordToken: null,
      ...(linking ? { endSessions: true as const } : {}),
    });
    if (changed || linking) {
      await recordAudit(trx, {
        principal,
        action: 'staff.sso_roles',
        target: `staff:${email}`,
        outcome: linking ? 'linked' : 'updated',
        before: { perfis: before },
        after: { perfis: roles },
      });
    }
    return linking ? ((await findStaffById(trx, id))?.sessionVersion ?? 0) : row.sessionVersion;
  });
  log.info('auth.sign_in', { userId: id, method: 'sso' });
  return { id, name, email, sessionVersion };
}
