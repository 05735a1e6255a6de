import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { mailConfigured, sendMail } from '@/lib/mail/send-mail';
import { FieldRejected } from '@/lib/validation/field-rejected';
import { confirmContactEmail, type ContactLink } from '@/lib/webhooks/configurations/store/contact';
import { contactConfirmationMail } from './partner-mail';

/**
 * A technical contact confirmed by its owner (issue 43). Setting or changing a configuration's
 * `emailContato` stores it unconfirmed with a single-use link (its token kept as a SHA-256 hash,
 * for CONTACT_LINK_HOURS) and e-mails that link once; the page it opens confirms only when its
 * button is pressed (a mail scanner fetching the link confirms nothing). Only a confirmed contact
 * is told anything else (partner-notice.ts).
 */
export const CONTACT_LINK_HOURS = 48;
export const CONTACT_CONFIRMATION_PAGE = '/confirmar-contato';

export type NewContactLink = ContactLink & { token: string };

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function newContactLink(now: number): NewContactLink {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashOf(token), expires: now + CONTACT_LINK_HOURS * 3_600_000 };
}

/** E-mails the link (nothing without SMTP_URL, which requires NEXTAUTH_URL). True when the mail server took it. */
export async function mailContactConfirmation(to: string, config: { id: string; url: string }, link: NewContactLink): Promise<boolean> {
  const origin = env().NEXTAUTH_URL;
  if (!mailConfigured() || !origin) return false;
  const page = new URL(CONTACT_CONFIRMATION_PAGE, origin);
  page.searchParams.set('token', link.token);
  return sendMail(contactConfirmationMail(to, config, page.toString(), link.expires), 'webhook.partner.confirmacao');
}

/** The confirmation page's button: the contact whose live link this is, confirmed once; 400 naming `token` otherwise. */
export async function confirmContact(token: string): Promise<void> {
  if (!(await confirmContactEmail(await getDb(), hashOf(token), Date.now()))) {
    throw new FieldRejected('token', 'contactLinkInvalid', 'The link is invalid, used or expired.');
  }
}
