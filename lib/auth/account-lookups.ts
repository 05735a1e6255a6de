import 'server-only';
import type { Knex } from 'knex';

/**
 * What authentication reads about the accounts behind a credential, on every request: an API
 * client's row (a revoked client's tokens stop working, client-state.ts) and a staff account's
 * (a disabled account's or an ended session stops, staff-session.ts). Those rows belong to
 * lib/api-clients and lib/staff, which sit above lib/auth; so auth declares the lookups it needs
 * and the composition root (lib/api/callers.ts) registers their implementations before any
 * request is answered.
 *
 * Held on globalThis, as the database handle is: Next's instrumentation (which registers them at
 * start, lib/startup.ts) and its routes and pages are bundled apart, in one process.
 */
export type ApiClientState = { revokedAt: number | null };

export type StaffAccount = {
  id: string;
  email: string;
  name: string;
  /** Comma-separated roles as stored. */
  roles: string;
  disabledAt: number | null;
  ssoSubject: string | null;
  sessionVersion: number;
};

export type AccountLookups = {
  /** The embedded API client with this client_id, or undefined when there is none. */
  apiClient(db: Knex, clientId: string): Promise<ApiClientState | undefined>;
  /** The staff account with this id, or undefined when there is none. */
  staffAccount(db: Knex, userId: string): Promise<StaffAccount | undefined>;
};

const holder = globalThis as typeof globalThis & { __integrationConsoleAccountLookups?: AccountLookups };

export function registerAccountLookups(lookups: AccountLookups): void {
  holder.__integrationConsoleAccountLookups = lookups;
}

/**
 * The registered lookups. None registered is a wiring fault, and it fails the request (500) rather
 * than let a credential through unchecked or refuse every caller without saying why.
 */
export function accountLookups(): AccountLookups {
  const lookups = holder.__integrationConsoleAccountLookups;
  if (!lookups)
    throw new Error('lib/auth: no account lookups registered; the composition root (lib/api/callers.ts) must register them first');
  return lookups;
}
