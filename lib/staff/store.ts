import 'server-only';
import type { Knex } from 'knex';
import { toNumber, type DbRow } from '@/lib/db/dialect';

/**
 * The one module that reads and writes `staff_users`: the admin screens (lib/staff/service.ts),
 * password and single sign-on (lib/auth) and the session check all go through it. Rows come back
 * as StaffRow, with the stored comma list of roles left for the caller to parse.
 */
const TABLE = 'staff_users';

/** The stored hash of an account whose password was never set (or is owned by the identity provider): verifies nothing. */
export const NO_PASSWORD = '!';

export type StaffRow = {
  id: string;
  email: string;
  name: string;
  /** Comma-separated roles as stored. */
  roles: string;
  passwordHash: string;
  disabledAt: number | null;
  ssoSubject: string | null;
  createdAt: number;
  passwordTokenHash: string | null;
  passwordTokenExpires: number | null;
  /** Console sessions carry the version they were signed in at; any other is refused (lib/auth/staff-session.ts). */
  sessionVersion: number;
};

type Db = Knex | Knex.Transaction;

const optional = (value: unknown) => (value === null || value === undefined ? null : value);

function fromRow(row: DbRow): StaffRow {
  const expires = optional(row.password_token_expires);
  const disabledAt = optional(row.disabled_at);
  return {
    id: String(row.id),
    email: String(row.email),
    name: String(row.name),
    roles: String(row.roles),
    passwordHash: String(row.password_hash),
    disabledAt: disabledAt === null ? null : toNumber(disabledAt),
    ssoSubject: optional(row.sso_subject) === null ? null : String(row.sso_subject),
    createdAt: toNumber(row.created_at),
    passwordTokenHash: optional(row.password_token_hash) === null ? null : String(row.password_token_hash),
    passwordTokenExpires: expires === null ? null : toNumber(expires),
    sessionVersion: toNumber(row.session_version),
  };
}

async function first(query: Knex.QueryBuilder): Promise<StaffRow | undefined> {
  const row = (await query.first()) as DbRow | undefined;
  return row ? fromRow(row) : undefined;
}

export const findStaffById = (db: Db, id: string) => first(db(TABLE).where({ id }));
export const findStaffByEmail = (db: Db, email: string) => first(db(TABLE).where({ email }));
export const findStaffBySsoSubject = (db: Db, subject: string) => first(db(TABLE).where({ sso_subject: subject }));
export const findStaffByPasswordToken = (db: Db, tokenHash: string) => first(db(TABLE).where({ password_token_hash: tokenHash }));

export async function listStaffRows(db: Db): Promise<StaffRow[]> {
  return ((await db(TABLE).orderBy('email').select('*')) as DbRow[]).map(fromRow);
}

export type NewStaff = { id: string; email: string; name: string; roles: string; createdAt: number; ssoSubject?: string };

/** A new account with no password of its own (it gets a one-time link, or signs in through the provider). */
export async function insertStaff(db: Db, staff: NewStaff): Promise<void> {
  await db(TABLE).insert({
    id: staff.id,
    email: staff.email,
    name: staff.name,
    password_hash: NO_PASSWORD,
    roles: staff.roles,
    created_at: staff.createdAt,
    ...(staff.ssoSubject ? { sso_subject: staff.ssoSubject } : {}),
  });
}

export type StaffChange = Partial<{
  roles: string;
  name: string;
  passwordHash: string;
  disabledAt: number | null;
  ssoSubject: string;
  passwordToken: { hash: string; expires: number } | null;
  /** Bumps the session version: every console session of the account ends at its next request. */
  endSessions: true;
}>;

/** Conditions of a change: only while that one-time link, or that session version, is still the account's. */
export type StaffChangeGuard = { passwordTokenHash?: string; sessionVersion?: number };

const COLUMNS = {
  roles: 'roles',
  name: 'name',
  passwordHash: 'password_hash',
  disabledAt: 'disabled_at',
  ssoSubject: 'sso_subject',
} as const;

/**
 * Changes one account; with a guard, only while it holds (a link used twice at once sets the
 * password once; a session ended by another change cannot change the password after it). Answers
 * how many rows changed.
 */
export async function updateStaffRow(db: Db, id: string, change: StaffChange, guard: StaffChangeGuard = {}): Promise<number> {
  const values: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(COLUMNS)) {
    const value = change[key as keyof typeof COLUMNS];
    if (value !== undefined) values[column] = value;
  }
  if (change.passwordToken !== undefined) {
    values.password_token_hash = change.passwordToken?.hash ?? null;
    values.password_token_expires = change.passwordToken?.expires ?? null;
  }
  // In the statement, not read-then-write: concurrent bumps each count.
  if (change.endSessions) values.session_version = db.raw('?? + 1', ['session_version']);
  if (Object.keys(values).length === 0) return 0;
  return db(TABLE)
    .where({
      id,
      ...(guard.passwordTokenHash !== undefined ? { password_token_hash: guard.passwordTokenHash } : {}),
      ...(guard.sessionVersion !== undefined ? { session_version: guard.sessionVersion } : {}),
    })
    .update(values);
}
