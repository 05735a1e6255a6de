import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { getDb } from '@/lib/db/handle';
import { isUniqueViolation } from '@/lib/db/dialect';
import { recordAudit } from '@/lib/audit/store';
import { hashSecret, verifySecret } from '@/lib/auth/passwords';
import { checkPassword } from '@/lib/auth/password-policy';
import type { Principal, StaffPrincipal } from '@/lib/auth/principal';
import { parseRoles } from '@/lib/auth/staff-session';
import { refuse } from '@/lib/errors/refusal';
import { countAttempt, passwordChangeCounters, settleSuccess } from '@/lib/auth/login-throttle';
import { log } from '@/lib/log';
import { metrics } from '@/lib/observability/metrics';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { mailConfigured, sendMail } from '@/lib/mail/send-mail';
import type { PasswordLink, StaffCreate, StaffView } from './contract';
import { passwordLinkMail, type LinkPurpose } from './password-link-mail';
import { selfChangeRefusal } from './self-change';
import { findStaffById, findStaffByPasswordToken, insertStaff, listStaffRows, updateStaffRow, type StaffRow } from '@/lib/staff/store';

/**
 * Staff accounts for admins (issue 11 §1). Creating a user or resetting a password makes a one-time
 * link (valid 24 h, only its SHA-256 stored). It is e-mailed when SMTP_URL is configured; otherwise,
 * or when the mail server does not take it, it is answered for the admin to hand over. Admins cannot take their own admin role away or disable themselves, so the last admin
 * cannot lock everyone out. Every change is audited, never with a password or link.
 *
 * Sessions: a new password (changed, or set with a link) and disabling end the account's console
 * sessions (the session version, lib/auth/staff-session.ts), all but the one that changed its own
 * password. Issuing a reset link ends none: the old password still signs in until the link is
 * used, so ending sessions then would protect nothing; to shut someone out at once, disable the
 * account (enabling it again revives no session).
 */
const LINK_VALIDITY_MS = 24 * 3_600_000;

function viewOf(row: StaffRow): StaffView {
  return {
    id: row.id,
    email: row.email,
    nome: row.name,
    perfis: parseRoles(row.roles),
    ativo: row.disabledAt === null,
    sso: row.ssoSubject !== null,
    criadoEm: new Date(row.createdAt).toISOString(),
  };
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

async function rowById(id: string): Promise<StaffRow> {
  const row = await findStaffById(await getDb(), id);
  if (!row) throw refuse.notFound('Staff user not found.');
  return row;
}

export async function listStaff(): Promise<StaffView[]> {
  return (await listStaffRows(await getDb())).map(viewOf);
}

/** Active staff who look after webhooks (the webhooks role, or admin): who hears of a delivery incident. */
export async function webhookStaff(): Promise<{ email: string; name: string }[]> {
  return (await listStaffRows(await getDb()))
    .filter((row) => row.disabledAt === null)
    .filter((row) => parseRoles(row.roles).some((role) => role === 'webhooks' || role === 'admin'))
    .map((row) => ({ email: row.email, name: row.name }));
}

/** A fresh one-time link for a user, e-mailed or answered; any earlier one stops working. */
export async function issueLink(
  user: Pick<StaffView, 'id' | 'email' | 'nome'>,
  origin: string,
  purpose: LinkPurpose,
): Promise<PasswordLink> {
  const token = randomBytes(32).toString('base64url');
  const expires = Date.now() + LINK_VALIDITY_MS;
  await updateStaffRow(await getDb(), user.id, { passwordToken: { hash: tokenHash(token), expires } });
  const link = `${origin}/definir-senha?token=${token}`;
  const expiraEm = new Date(expires).toISOString();
  if (!mailConfigured()) return { entrega: 'manual', link, expiraEm };
  const mail = passwordLinkMail({ email: user.email, name: user.nome }, link, new Date(expires), purpose);
  const sent = await sendMail(mail, `staff.password_link.${purpose}`);
  return sent ? { entrega: 'email', expiraEm } : { entrega: 'manual', link, emailFalhou: true, expiraEm };
}

export async function createStaff(principal: Principal, input: StaffCreate, origin: string) {
  const staff = { id: crypto.randomUUID(), email: input.email, name: input.nome, roles: input.perfis.join(','), createdAt: Date.now() };
  const db = await getDb();
  try {
    await db.transaction(async (trx) => {
      await insertStaff(trx, staff);
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
  const view: StaffView = {
    id: staff.id,
    email: staff.email,
    nome: staff.name,
    perfis: input.perfis,
    ativo: true,
    sso: false,
    criadoEm: new Date(staff.createdAt).toISOString(),
  };
  return { ...view, definicaoSenha: await issueLink(view, origin, 'created') };
}

export async function updateStaff(principal: Principal, id: string, change: { perfis?: StaffView['perfis']; ativo?: boolean }) {
  const current = viewOf(await rowById(id));
  const self = principal.kind === 'staff' && principal.userId === id;
  const refusal = self ? selfChangeRefusal(change) : undefined;
  if (refusal) throw new FieldRejected(refusal.field, refusal.code, 'Admins cannot remove their own admin role or disable themselves.');
  const db = await getDb();
  await db.transaction(async (trx) => {
    await updateStaffRow(trx, id, {
      ...(change.perfis ? { roles: change.perfis.join(',') } : {}),
      ...(change.ativo !== undefined && change.ativo !== current.ativo
        ? change.ativo
          ? { disabledAt: null }
          : { disabledAt: Date.now(), endSessions: true as const }
        : {}),
    });
    await recordAudit(trx, {
      principal,
      action: 'staff.update',
      target: `staff:${current.email}`,
      outcome: 'updated',
      httpStatus: 200,
      before: { perfis: current.perfis, ativo: current.ativo },
      after: { perfis: change.perfis ?? current.perfis, ativo: change.ativo ?? current.ativo },
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
  const row = await findStaffByPasswordToken(db, tokenHash(token));
  if (!row || (row.passwordTokenExpires ?? 0) < Date.now()) {
    throw new FieldRejected('token', 'passwordLinkInvalid', 'The link is invalid, used or expired.');
  }
  enforcePolicy('senha', password, row.email);
  const passwordHash = await hashSecret(password);
  // Every session ends, whoever holds one: a reset is for a forgotten or compromised password.
  await updateStaffRow(db, row.id, { passwordHash, passwordToken: null, endSessions: true }, { passwordTokenHash: tokenHash(token) });
}

/**
 * The signed-in user's new password, given the current one: every other session of the account
 * ends. Answers the account's new session version, for the caller's own session to carry on with;
 * undefined when that session was itself ended meanwhile (by another change), which then changes
 * nothing. Wrong current passwords are throttled like sign-in (login-throttle.ts,
 * passwordChangeCounters): counted before the check, 429 on `senhaAtual` while locked.
 */
export async function changeOwnPassword(
  staff: StaffPrincipal,
  current: string,
  next: string,
  address: string,
): Promise<number | undefined> {
  const session = staff.session ?? { id: '', version: 0 };
  const counters = passwordChangeCounters(staff.userId, session.id, address);
  const attempt = await countAttempt(counters);
  if (!attempt.allowed) {
    metrics().throttled.inc({ endpoint: 'password_change' });
    log.warn('auth.password_change_throttled', { userId: staff.userId, address, retryAfterSeconds: attempt.retryAfterSeconds });
    throw refuse.throttled(attempt.retryAfterSeconds, 'Too many wrong current passwords; retry later.', {
      name: 'senhaAtual',
      code: 'passwordAttemptsLocked',
      values: { minutes: Math.ceil(attempt.retryAfterSeconds / 60) },
    });
  }
  const row = await rowById(staff.userId);
  if (!(await verifySecret(current, row.passwordHash))) {
    throw new FieldRejected('senhaAtual', 'passwordWrong', 'The current password is wrong.');
  }
  await settleSuccess(counters);
  enforcePolicy('novaSenha', next, staff.email);
  const db = await getDb();
  const changed = await updateStaffRow(
    db,
    staff.userId,
    { passwordHash: await hashSecret(next), endSessions: true },
    { sessionVersion: session.version },
  );
  if (changed === 0) return undefined;
  await recordAudit(db, {
    principal: staff,
    action: 'staff.password_change',
    target: `staff:${staff.email}`,
    outcome: 'changed',
    httpStatus: 204,
  });
  return session.version + 1;
}
