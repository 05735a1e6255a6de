import type { SsoConfig } from '@/lib/config/sso';
import { STAFF_ROLES, type StaffRole } from '@/lib/config/staff-roles';

/** The console roles a provider's claim value opens: an array of names, or one name. */
export function mappedRoles(claimValue: unknown, roleMap: SsoConfig['roleMap']): StaffRole[] {
  const names = Array.isArray(claimValue) ? claimValue : typeof claimValue === 'string' ? [claimValue] : [];
  const roles = new Set<StaffRole>();
  for (const name of names) {
    if (typeof name !== 'string') continue;
    for (const role of roleMap.get(name) ?? []) roles.add(role);
  }
  return STAFF_ROLES.filter((role) => roles.has(role));
}
