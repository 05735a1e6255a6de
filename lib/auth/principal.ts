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

/**
 * The area of the product a staff role opens. API clients reach webhooks and scheduling for their
 * own data only. The audit trail is for operators: it spans every tenant and names staff users, so
 * only the staff `admin` role reads it, never an API client.
 */
export type Capability = 'webhooks' | 'scheduling' | 'audit';

const API_CLIENT_CAPABILITIES: readonly Capability[] = ['webhooks', 'scheduling'];

export function hasCapability(principal: Principal, capability: Capability): boolean {
  if (principal.kind === 'api-client') return API_CLIENT_CAPABILITIES.includes(capability);
  if (principal.roles.includes('admin')) return true;
  return capability !== 'audit' && principal.roles.includes(capability);
}

/** The identifier kept in the audit trail for a principal. */
export function actorId(principal: Principal): string {
  return principal.kind === 'api-client' ? principal.clientId : principal.email;
}
