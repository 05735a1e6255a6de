import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { getDb } from '@/lib/data';
import { isUniqueViolation, toNumber, type DbRow } from '@/lib/db/dialect';
import { recordAudit } from '@/lib/audit/audit-trail';
import { hashSecret, verifySecret } from '@/lib/auth/passwords';
import { checkPassword } from '@/lib/auth/password-policy';
import type { Principal, StaffPrincipal } from '@/lib/auth/principal';
import { parseRoles } from '@/lib/auth/staff-session';
import { refuse } from '@/lib/errors/refusal';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { mailConfigured, sendMail } from '@/lib/mail/send-mail';
import type { PasswordLink, StaffCreate, StaffView } from './contract';
import { passwordLinkMail, type LinkPurpose } from './password-link-mail';

/**
 * Staff accounts for admins (issue 11 §1). Creating a user or resetting a password makes a one-time
 * link (valid 24 h, only its SHA-256 stored). It is e-mailed when SMTP_URL is configured; otherwise,
 * or when the mail server does not take it, it is answered for the admin to hand over. Admins cannot take their own admin role away or disable themselves, so the last admin
 * cannot lock everyone out. Every change is audited, never with a password or link.
 */
const TABLE = 'staff_users';
const LINK_VALIDITY_MS = 24 * 3_600_000;
/** The stored hash of an account whose password was never set: verifies nothing. */
const NO_PASSWORD = '!';

function viewOf(row: DbRow): StaffView {
  return {
    id: String(row.id),
    email: String(row.email),
    name: String(row.name),
    roles: parseRoles(String(row.roles)),
    ativo: row.disabled_at === null || row.disabled_at === undefined,
    sso: row.sso_subject !== null && row.sso_subject !== undefined,
    criadoEm: new Date(toNumber(row.created_at)).toISOString(),
  };
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

async function rowById(id: string): Promise<DbRow> {
  const db = await getDb();
  const rows = (await db(TABLE).where({ id }).select('*')) as DbRow[];
  if (!rows[0]) throw refuse.notFound('Staff user not found.');
  return rows[0];
}

export async function listStaff(): Promise<StaffView[]> {
  const db = await getDb();
  return ((await db(TABLE).orderBy('email').select('*')) as DbRow[]).map(viewOf);
}

/** A fresh one-time link for a user, e-mailed or answered; any earlier one stops working. */
async function issueLink(user: { id: string; email: string; name: string }, origin: string, purpose: LinkPurpose): Promise<PasswordLink> {
  const token = randomBytes(32).toString('base64url');
  const expires = Date.now() + LINK_VALIDITY_MS;
  const db = await getDb();
  await db(TABLE)
    .where({ id: user.id })
    .update({ password_token_hash: tokenHash(token), password_token_expires: expires });
  const link = `${origin}/definir-senha?token=${token}`;
  const expiraEm = new Date(expires).toISOString();
  if (!mailConfigured()) return { entrega: 'manual', link, expiraEm };
  const sent = await sendMail(passwordLinkMail(user, link, new Date(expires), purpose), `staff.password_link.${purpose}`);
  return sent ? { entrega: 'email', expiraEm } : { entrega: 'manual', link, emailFalhou: true, expiraEm };
}

export async function createStaff(principal: Principal, input: StaffCreate, origin: string) {
  const id = crypto.randomUUID();
  const row = {
    id,
    email: input.email,
    name: input.name,
    password_hash: NO_PASSWORD,
    roles: input.roles.join(','),
    created_at: Date.now(),
  };
  const db = await getDb();
  try {
    await db.transaction(async (trx) => {
      await trx(TABLE).insert(row);
      await recordAudit(trx, {
        principal,
        action: 'staff.create',
        target: `staff:${input.email}`,
        outcome: 'created',
        httpStatus: 201,
        after: input,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw refuse.conflict('staff-exists', `A staff user ${input.email} exists already.`);
    throw error;
  }
  return { ...viewOf(row), definicaoSenha: await issueLink(row, origin, 'created') };
}

export async function updateStaff(principal: Principal, id: string, change: { roles?: StaffView['roles']; ativo?: boolean }) {
  const current = viewOf(await rowById(id));
  const self = principal.kind === 'staff' && principal.userId === id;
  if (self && change.roles && !change.roles.includes('admin')) {
    throw new FieldRejected('roles', 'ownAdminRole', 'You cannot remove your own admin role.');
  }
  if (self && change.ativo === false) throw new FieldRejected('ativo', 'disableSelf', 'You cannot disable yourself.');
  const values: Record<string, unknown> = {};
  if (change.roles) values.roles = change.roles.join(',');
  if (change.ativo !== undefined && change.ativo !== current.ativo) values.disabled_at = change.ativo ? null : Date.now();
  const db = await getDb();
  await db.transaction(async (trx) => {
    if (Object.keys(values).length > 0) await trx(TABLE).where({ id }).update(values);
    await recordAudit(trx, {
      principal,
      action: 'staff.update',
      target: `staff:${current.email}`,
      outcome: 'updated',
      httpStatus: 200,
      before: { roles: current.roles, ativo: current.ativo },
      after: { roles: change.roles ?? current.roles, ativo: change.ativo ?? current.ativo },
    });
  });
  return viewOf(await rowById(id));
}

export async function resetPasswordLink(principal: Principal, id: string, origin: string): Promise<PasswordLink> {
  const current = viewOf(await rowById(id));
  if (current.sso) throw refuse.conflict('staff-sso', 'This account signs in through the identity provider; it has no password here.');
  const link = await issueLink(current, origin, 'reset');
  await recordAudit(await getDb(), {
    principal,
    action: 'staff.password_link',
    target: `staff:${current.email}`,
    outcome: link.entrega === 'email' ? 'emailed' : 'issued',
    httpStatus: 200,
  });
  return link;
}

function enforcePolicy(field: string, password: string, email: string): void {
  const violation = checkPassword(password, email);
  if (violation) throw new FieldRejected(field, violation, 'The password does not meet the rules.');
}

/** The public end of a one-time link: sets the password once, within 24 h. */
export async function setPasswordWithToken(token: string, password: string): Promise<void> {
  const db = await getDb();
  const rows = (await db(TABLE)
    .where({ password_token_hash: tokenHash(token) })
    .select('*')) as DbRow[];
  const row = rows[0];
  if (!row || toNumber(row.password_token_expires) < Date.now()) {
    throw new FieldRejected('token', 'passwordLinkInvalid', 'The link is invalid, used or expired.');
  }
  enforcePolicy('senha', password, String(row.email));
  const hash = await hashSecret(password);
  await db(TABLE)
    .where({ id: String(row.id), password_token_hash: tokenHash(token) })
    .update({
      password_hash: hash,
      password_token_hash: null,
      password_token_expires: null,
    });
}

export async function changeOwnPassword(staff: StaffPrincipal, current: string, next: string): Promise<void> {
  const row = await rowById(staff.userId);
  if (!(await verifySecret(current, String(row.password_hash)))) {
    throw new FieldRejected('senhaAtual', 'passwordWrong', 'The current password is wrong.');
  }
  enforcePolicy('novaSenha', next, staff.email);
  const db = await getDb();
  await db(TABLE)
    .where({ id: staff.userId })
    .update({ password_hash: await hashSecret(next) });
  await recordAudit(db, {
    principal: staff,
    action: 'staff.password_change',
    target: `staff:${staff.email}`,
    outcome: 'changed',
    httpStatus: 204,
  });
}
