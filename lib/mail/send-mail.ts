import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '@/lib/config/env';
import { log, redactError } from '@/lib/log';
import { isLoopbackHost } from '@/lib/config/loopback';

/**
 * The one way the app sends e-mail: plain-text messages through SMTP_URL. One transport per
 * process (nodemailer keeps no pool by default: each message is its own connection, which is
 * right for a handful of password links a day). Addresses and bodies are never logged: a body
 * may hold a one-time link, an address is personal data.
 */
export type OutgoingMail = { to: string; subject: string; text: string };

let transport: Transporter | undefined;

export function mailConfigured(): boolean {
  return env().SMTP_URL !== undefined;
}

function transporter(): Transporter {
  if (transport) return transport;
  const { SMTP_URL, SMTP_TIMEOUT_MS } = env();
  if (!SMTP_URL) throw new Error('SMTP_URL is not set');
  transport = nodemailer.createTransport(SMTP_URL, {
    // A link in these mails signs its holder in for 24 h: on smtp://, STARTTLS is required rather
    // than used when offered, since anyone on the path could strip the offer and read the mail.
    // Only a relay on this machine may be plain.
    requireTLS: !isLoopbackHost(new URL(SMTP_URL).hostname),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return transport;
}

/** True when the server accepted the message; false (logged) when it could not be sent. */
export async function sendMail(mail: OutgoingMail, purpose: string): Promise<boolean> {
  try {
    await transporter().sendMail({ from: env().SMTP_FROM, ...mail });
    log.info('mail.sent', { purpose });
    return true;
  } catch (error) {
    // Not the message: SMTP replies quote the rejected recipient's address.
    const { errorType, errorCode } = redactError(error);
    const responseCode = (error as { responseCode?: unknown }).responseCode;
    log.warn('mail.send_failed', { purpose, errorType, errorCode, smtpCode: typeof responseCode === 'number' ? responseCode : undefined });
    return false;
  }
}
