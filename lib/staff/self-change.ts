import type { StaffRole } from '@/lib/config/staff-roles';

/**
 * What an admin may not do to their own account: remove their admin role, or disable it (someone
 * must always be able to manage staff). The service refuses such a change with this field and
 * message code; the console does not offer it on the admin's own row and says why with the same
 * message. No imports beyond types: the staff page's first load uses it.
 */
export type SelfChangeRefusal = { field: 'perfis'; code: 'ownAdminRole' } | { field: 'ativo'; code: 'disableSelf' };

export function selfChangeRefusal(change: { perfis?: readonly StaffRole[]; ativo?: boolean }): SelfChangeRefusal | undefined {
  if (change.perfis && !change.perfis.includes('admin')) return { field: 'perfis', code: 'ownAdminRole' };
  if (change.ativo === false) return { field: 'ativo', code: 'disableSelf' };
  return undefined;
}
