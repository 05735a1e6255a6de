/**
 * Staff roles: `admin` may do everything, the others one area each. Here, under the settings,
 * because settings and seed files name them (OIDC_ROLE_MAP, lib/config/sso.ts) and are checked
 * against this list at start. No server imports: the console's client components read it too.
 */
export const STAFF_ROLES = ['admin', 'webhooks', 'scheduling'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
