import { createHash } from 'node:crypto';
import type { StaffRole } from '@/lib/config/staff-roles';
import { SCOPES } from './scopes';

/**
 * Who is calling: an API client with a Bearer token, or a staff user signed in to the console. A
 * partner in the portal (lib/portal) is an API client of its tenant with the `webhooks` scope alone,
 * issued by the portal: every operation scopes it to its tenant by the same code as any API client.
 */
export type ApiClientPrincipal = {
  kind: 'api-client';
  /** Who issued the token: this server (client credentials), the integration platform (JWKS) or a portal link. */
  issuer: 'embedded' | 'platform' | 'portal';
  clientId: string;
  usuarioId: string;
  sistemaOrigem: number;
  /** The OAuth scopes the token grants (RFC 6749 §3.3). */
  scopes: readonly string[];
  /** A portal session (issuer `portal`): its public id, and whether it may only read. */
  portal?: PortalSessionRef;
};

export type PortalSessionRef = { sessionId: string; readOnly: boolean };

export type StaffPrincipal = {
  kind: 'staff';
  userId: string;
  email: string;
  name: string;
  roles: StaffRole[];
  /** Signs in through the identity provider (no password of its own). */
  sso?: boolean;
  /** The console session the request came with (lib/auth/staff-session.ts). */
  session?: ConsoleSession;
};

/**
 * A console session: `id` is fixed at sign-in (empty for sessions from before it was), `version`
 * is the account's session version then; a password change bumps the account's, ending the others.
 */
export type ConsoleSession = { id: string; version: number };

export type Principal = ApiClientPrincipal | StaffPrincipal;

/**
 * The area of the product a staff role opens. API clients reach webhooks and scheduling for their
 * own data only, each with its scope, and publish events with `eventos:publicar`. The audit trail is
 * for operators: it spans every tenant and names staff users, so only the staff `admin` role reads
 * it, never an API client. Among staff, only admins publish events and administer (API clients,
 * staff accounts).
 */
export type Capability = 'webhooks' | 'scheduling' | 'audit' | 'events' | 'administration' | 'account';

/** The scope that opens each capability to an API client; none opens the audit trail. */
export const SCOPE_OF_CAPABILITY: Record<Capability, string | undefined> = {
  webhooks: SCOPES.webhooks,
  scheduling: SCOPES.scheduling,
  events: SCOPES.publishEvents,
  audit: undefined,
  administration: undefined,
  account: undefined,
};

export function hasCapability(principal: Principal, capability: Capability): boolean {
  if (principal.kind === 'api-client') {
    const scope = SCOPE_OF_CAPABILITY[capability];
    return scope !== undefined && principal.scopes.includes(scope);
  }
  if (principal.roles.includes('admin')) return true;
  // Every staff user manages their own account (password); only admins read the audit trail,
  // publish events and administer clients and staff.
  if (capability === 'account') return true;
  return capability === 'webhooks' || capability === 'scheduling' ? principal.roles.includes(capability) : false;
}

/** A partner in the portal, as opposed to an API client calling with its own token. */
export function isPortalSession(principal: Principal): principal is ApiClientPrincipal & { portal: PortalSessionRef } {
  return principal.kind === 'api-client' && principal.portal !== undefined;
}

/** The identifier kept in the audit trail for a principal: readable, not necessarily unique. */
export function actorId(principal: Principal): string {
  return principal.kind === 'api-client' ? principal.clientId : principal.email;
}

const OWNER_KEY_MAX = 200; // the idempotency_keys.owner column

/**
 * Whose state (idempotency keys and their replays) a request reads and writes. Unlike actorId it
 * cannot collide: a platform token whose client_id equals an embedded client's id, or the same
 * client_id under another tenant (usuarioId), is another owner. Every part is URI-encoded, so no
 * part can contain the `:` separator; a client_id too long for the column is replaced by its hash,
 * marked `#` (which encoding never produces).
 */
export function ownerKey(principal: Principal): string {
  // A request asks for it several times (idempotency, the back-end, the read model): made once per principal.
  let key = ownerKeys.get(principal);
  if (key === undefined) {
    key = makeOwnerKey(principal);
    ownerKeys.set(principal, key);
  }
  return key;
}

const ownerKeys = new WeakMap<Principal, string>();

function makeOwnerKey(principal: Principal): string {
  if (principal.kind === 'staff') return `staff:${encodeURIComponent(principal.userId)}`;
  const prefix = ['api-client', principal.issuer, principal.usuarioId].map(encodeURIComponent).join(':');
  const key = `${prefix}:${encodeURIComponent(principal.clientId)}`;
  if (key.length <= OWNER_KEY_MAX) return key;
  return `${prefix}:#${createHash('sha256').update(principal.clientId).digest('hex')}`;
}
