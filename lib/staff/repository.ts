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
}>;

const COLUMNS = {
  roles: 'roles',
  name: 'name',
  passwordHash: 'password_hash',
  disabledAt: 'disabled_at',
  ssoSubject: 'sso_subject',
} as const;

/**
 * Changes one account; with `whereToken`, only while that one-time link is still its own (so a link
 * used twice at once sets the password once). Answers how many rows changed.
 */
export async function updateStaffRow(db: Db, id: string, change: StaffChange, whereToken?: string): Promise<number> {
  const values: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(COLUMNS)) {
    const value = change[key as keyof typeof COLUMNS];
    if (value !== undefined) values[column] = value;
  }
  if (change.passwordToken !== undefined) {
    values.password_token_hash = change.passwordToken?.hash ?? null;
    values.password_token_expires = change.passwordToken?.expires ?? null;
  }
  if (Object.keys(values).length === 0) return 0;
  return db(TABLE)
    .where({ id, ...(whereToken ? { password_token_hash: whereToken } : {}) })
    .update(values);
}
