import type { StaffRole } from '@/lib/db/seed-format';

/** Who is calling: an API client with a Bearer token, or a staff user signed in to the console. */
export type ApiClientPrincipal = {
  kind: 'api-client';
  clientId: string;
  usuarioId: string;
  sistemaOrigem: number;
};

export type StaffPrincipal = {
  kind: 'staff';
  userId: string;
  email: string;
  name: string;
  roles: StaffRole[];
};

export type Principal = ApiClientPrincipal | StaffPrincipal;

/** The area of the product a staff role opens; API clients reach both areas for their own data. */
export type Capability = 'webhooks' | 'scheduling';

export function hasCapability(principal: Principal, capability: Capability): boolean {
  if (principal.kind === 'api-client') return true;
  return principal.roles.includes('admin') || principal.roles.includes(capability);
}

/** The identifier kept in the audit trail for a principal. */
export function actorId(principal: Principal): string {
  return principal.kind === 'api-client' ? principal.clientId : principal.email;
}
