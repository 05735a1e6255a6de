import { z } from 'zod';

/**
 * Outgoing mail (issue 11 §1), merged into the app's environment schema in lib/config/env.ts. No
 * mail server is assumed: without SMTP_URL, one-time password links are shown to the admin instead.
 */
export const mailEnvShape = {
  /** smtp://user:password@host:587 (STARTTLS required, except on loopback) or smtps://…:465. */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be smtp://user:password@host:port or smtps://…' }).optional(),
  /** The From of every message, e.g. `Integration Console <no-reply@hospital.example>`. */
  SMTP_FROM: z.string().trim().min(3).max(320).optional(),
  /** Connecting, greeting and each reply must come within this many milliseconds. */
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(10_000),
};

type MailEnv = z.infer<z.ZodObject<typeof mailEnvShape>>;

export function checkMailEnv(value: MailEnv & { NEXTAUTH_URL?: string }, ctx: z.RefinementCtx): void {
  // The e-mailed link's origin: never the Host header of whatever request asked for it.
  if (value.SMTP_URL && !value.NEXTAUTH_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['NEXTAUTH_URL'],
      message: 'is required with SMTP_URL: the console URL the e-mailed links point to',
    });
  }
  if (value.SMTP_URL && !value.SMTP_FROM) {
    ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'is required with SMTP_URL (the sender address of the e-mails)' });
  }
  if (!value.SMTP_URL && value.SMTP_FROM) {
    ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'is only used with SMTP_URL' });
  }
}
