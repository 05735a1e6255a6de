import 'server-only';
import type { Knex } from 'knex';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { recordAudit } from '@/lib/audit/store';
import { hashSecret } from '@/lib/auth/passwords';
import { checkPassword, type PasswordViolation } from '@/lib/auth/password-policy';
import type { StaffPrincipal } from '@/lib/auth/principal';
import { parseRoles } from '@/lib/auth/staff-session';
import { log } from '@/lib/log';
import type { PasswordLink } from './contract';
import { issueLink } from './service';
import { findStaffByEmail, insertStaff, listStaffRows, updateStaffRow } from '@/lib/staff/store';

/**
 * The first admin of a database that starts empty (issue 27 §9): nothing seeds accounts unless
 * asked to (SEED_FILE, or SEED_DEMO for the demo), so whoever runs the server creates one with
 * `npm run create-admin` (lib/staff/admin-command.ts), on the machine or in the container, against
 * the same database the server uses. Anyone who can run that command there already holds the
 * database and its secrets, so it needs no sign-in; it is audited as the account it makes.
 */
const CREATE_ADMIN_COMMAND = 'npm run create-admin -- --email <e-mail> --name <nome>';

/** An active account with the admin role exists. */
async function hasActiveAdmin(db: Knex): Promise<boolean> {
  return (await listStaffRows(db)).some((row) => row.disabledAt === null && parseRoles(row.roles).includes('admin'));
}

/**
 * Tells the operator at start how to create the first admin, when no active one exists. Not with
 * single sign-on: there the identity provider's groups make admins at their first sign-in.
 */
export async function adviseFirstAdmin(db: Knex): Promise<void> {
  if (env().sso || (await hasActiveAdmin(db))) return;
  log.warn('staff.no_admin', { command: CREATE_ADMIN_COMMAND, docs: 'docs/production.md, The first admin' });
}

export type AdminCommandOutcome =
  | { kind: 'sso-account' }
  | { kind: 'password-rejected'; violation: PasswordViolation }
  | {
      kind: 'done';
      /** `created`: a new account; `promoted`: an existing one, now an active admin. */
      account: 'created' | 'promoted';
      /** The one-time link, when no password was given. */
      link?: PasswordLink;
    };

/**
 * Makes `email` an active admin: a new account, or an existing password account given the admin
 * role (its other roles kept), enabled again, and signed out everywhere. Then a one-time password link (e-mailed when
 * SMTP_URL is set, as from the console), or the password given, checked by the same rules as the
 * console's. Running it again for the same address is how an admin locked out gets a new link.
 */
export async function makeAdmin(input: { email: string; name: string; origin: string; password?: string }): Promise<AdminCommandOutcome> {
  const violation = input.password === undefined ? undefined : checkPassword(input.password, input.email);
  if (violation) return { kind: 'password-rejected', violation };
  const db = await getDb();
  const existing = await findStaffByEmail(db, input.email);
  if (existing?.ssoSubject) return { kind: 'sso-account' };

  const id = existing?.id ?? crypto.randomUUID();
  const name = existing?.name ?? input.name;
  const roles = existing ? [...new Set([...parseRoles(existing.roles), 'admin' as const])] : (['admin'] as const);
  const principal: StaffPrincipal = { kind: 'staff', userId: id, email: input.email, name, roles: [...roles] };
  const passwordHash = input.password === undefined ? undefined : await hashSecret(input.password);
  await db.transaction(async (trx) => {
    if (existing) {
      // A password given here also voids any link still pending for the account. Either way the
      // account's sessions end, as on every other password path: this command is the way back in
      // after a lockout, which may follow a takeover whose sessions must not outlive it (issue 43).
      await updateStaffRow(trx, id, {
        roles: roles.join(','),
        disabledAt: null,
        endSessions: true,
        ...(passwordHash ? { passwordHash, passwordToken: null } : {}),
      });
      await recordAudit(trx, {
        principal,
        action: 'staff.update',
        target: `staff:${input.email}`,
        outcome: 'command-line',
        before: { perfis: parseRoles(existing.roles), ativo: existing.disabledAt === null },
        after: { perfis: roles, ativo: true },
      });
    } else {
      await insertStaff(trx, { id, email: input.email, name, roles: roles.join(','), createdAt: Date.now() });
      if (passwordHash) await updateStaffRow(trx, id, { passwordHash });
      await recordAudit(trx, {
        principal,
        action: 'staff.create',
        target: `staff:${input.email}`,
        outcome: 'command-line',
        after: { email: input.email, nome: name, perfis: roles },
      });
    }
    if (passwordHash) {
      await recordAudit(trx, { principal, action: 'staff.password_change', target: `staff:${input.email}`, outcome: 'command-line' });
    }
  });
  const account = existing ? 'promoted' : 'created';
  if (passwordHash) return { kind: 'done', account };
  const link = await issueLink({ id, email: input.email, nome: name }, input.origin, existing ? 'reset' : 'created');
  // As from the console: a new account's link goes with its creation, a new link for an existing one is an entry of its own.
  if (existing) {
    await recordAudit(db, {
      principal,
      action: 'staff.password_link',
      target: `staff:${input.email}`,
      outcome: link.entrega === 'email' ? 'emailed' : 'issued',
    });
  }
  return { kind: 'done', account, link };
}
