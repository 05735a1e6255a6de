import { z } from 'zod';
import { booleanFlag } from './boolean-flag';
import { claimPathSchema } from './claim-path';
import { isLoopbackHost } from './loopback';
import { STAFF_ROLES, type StaffRole } from './staff-roles';

/**
 * Single sign-on for staff (issue 11 §4): next-auth's OpenID Connect sign-in against the
 * hospital's identity provider (Microsoft Entra ID, Keycloak, Google Workspace…), merged into the
 * app's environment schema in lib/config/env.ts. Off unless OIDC_ISSUER is set. What a sign-in
 * does with a provider's roles claim is lib/auth/role-map.ts.
 */
export const ssoEnvShape = {
  /** The provider's issuer URL; its /.well-known/openid-configuration is read at sign-in. */
  OIDC_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** The button's text: "Entrar com {name}". */
  OIDC_DISPLAY_NAME: z.string().trim().min(1).max(60).default('SSO'),
  /** Scopes asked for; add the one that releases the roles claim where the provider needs it. */
  OIDC_SCOPES: z.string().trim().min(1).default('openid email profile'),
  /** The ID token claim (name or dotted path) holding the user's roles or groups: an array or one string. */
  OIDC_ROLES_CLAIM: claimPathSchema.default('roles'),
  /**
   * The provider's role or group names and the console role each opens, comma-separated:
   * `agendamento=scheduling,ti-integracao=admin`. A user with none of them is refused.
   */
  OIDC_ROLE_MAP: z.string().optional(),
  /** `false` removes the e-mail and password form (only with OIDC_ISSUER). */
  PASSWORD_SIGN_IN: booleanFlag.default(true),
};

type SsoEnv = z.infer<z.ZodObject<typeof ssoEnvShape>>;

export type SsoConfig = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  displayName: string;
  scopes: string;
  rolesClaim: string;
  /** Provider role/group name → the console roles it opens. */
  roleMap: ReadonlyMap<string, readonly StaffRole[]>;
};

/** `name=role,name=role`; a name may appear more than once to open several roles. */
export function parseRoleMap(text: string): Map<string, StaffRole[]> | { error: string } {
  const map = new Map<string, StaffRole[]>();
  for (const pair of text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const at = pair.lastIndexOf('=');
    const name = pair.slice(0, at).trim();
    const role = pair.slice(at + 1).trim();
    if (at <= 0 || !name) return { error: `"${pair}" is not name=role` };
    if (!(STAFF_ROLES as readonly string[]).includes(role)) return { error: `"${role}" is not one of ${STAFF_ROLES.join(', ')}` };
    map.set(name, [...new Set([...(map.get(name) ?? []), role as StaffRole])]);
  }
  if (map.size === 0) return { error: 'maps no name to a role' };
  return map;
}

export function checkSsoEnv(value: SsoEnv & { NEXTAUTH_URL?: string }, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (!value.OIDC_ISSUER) {
    for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLE_MAP'] as const) {
      if (value[name]) issue(name, 'is only used with OIDC_ISSUER');
    }
    if (!value.PASSWORD_SIGN_IN) issue('PASSWORD_SIGN_IN', 'false leaves no way to sign in: set OIDC_ISSUER too');
    return;
  }
  const url = new URL(value.OIDC_ISSUER);
  if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname))
    issue('OIDC_ISSUER', 'must be https:// (plain http only for a loopback address)');
  // next-auth builds the callback URL the provider redirects to from it (else http://localhost:3000).
  if (!value.NEXTAUTH_URL) issue('NEXTAUTH_URL', 'is required with OIDC_ISSUER: the console URL the provider sends people back to');
  if (!value.OIDC_CLIENT_ID) issue('OIDC_CLIENT_ID', 'is required with OIDC_ISSUER');
  if (!value.OIDC_CLIENT_SECRET) issue('OIDC_CLIENT_SECRET', 'is required with OIDC_ISSUER');
  if (!value.OIDC_ROLE_MAP) issue('OIDC_ROLE_MAP', 'is required with OIDC_ISSUER: which provider roles open which console roles');
  else {
    const parsed = parseRoleMap(value.OIDC_ROLE_MAP);
    if ('error' in parsed) issue('OIDC_ROLE_MAP', parsed.error);
  }
  if (!value.OIDC_SCOPES.split(/\s+/).includes('openid')) issue('OIDC_SCOPES', 'must include openid');
}

/** Present when OIDC_ISSUER is set (checkSsoEnv has made sure the rest is there and valid). */
export function ssoConfigFrom(value: SsoEnv): SsoConfig | undefined {
  if (!value.OIDC_ISSUER || !value.OIDC_CLIENT_ID || !value.OIDC_CLIENT_SECRET || !value.OIDC_ROLE_MAP) return undefined;
  const roleMap = parseRoleMap(value.OIDC_ROLE_MAP);
  if ('error' in roleMap) return undefined;
  return {
    issuer: value.OIDC_ISSUER.replace(/\/$/, ''),
    clientId: value.OIDC_CLIENT_ID,
    clientSecret: value.OIDC_CLIENT_SECRET,
    displayName: value.OIDC_DISPLAY_NAME,
    scopes: value.OIDC_SCOPES,
    rolesClaim: value.OIDC_ROLES_CLAIM,
    roleMap,
  };
}
