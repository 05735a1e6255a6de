import { z } from 'zod';
import { STAFF_ROLES } from '@/lib/config/staff-roles';
import { hasControlCharacters, hasInvisibleCharacters, noControlCharacters, noInvisibleCharacters } from '@/lib/validation/text';

/** Staff accounts as admins manage them (issue 11 §1). No server imports: the console's forms use these. */

/**
 * At least one role, refused with its own reason (not the generic list size): an account without
 * roles opens nothing, and access is taken away by disabling the account.
 */
const perfis = z
  .array(z.enum(STAFF_ROLES))
  .refine((list) => list.length > 0, { params: { key: 'rolesRequired' } })
  .meta({ minItems: 1 })
  .transform((list) => [...new Set(list)]);

export const staffCreateSchema = z.strictObject({
  email: z
    .email()
    .max(254)
    .transform((value) => value.toLowerCase()),
  nome: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((value) => !hasControlCharacters(value), noControlCharacters)
    .refine((value) => !hasInvisibleCharacters(value), noInvisibleCharacters),
  perfis,
});
export type StaffCreate = z.infer<typeof staffCreateSchema>;

export const staffUpdateSchema = z.strictObject({
  perfis: perfis.optional(),
  ativo: z.boolean().optional().meta({ description: 'false disables the account: its sessions end at their next request.' }),
});
export type StaffUpdate = z.input<typeof staffUpdateSchema>;

export const staffViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  nome: z.string(),
  perfis: z.array(z.enum(STAFF_ROLES)),
  ativo: z.boolean(),
  /** Signs in through the identity provider, which sets `perfis` at every sign-in. */
  sso: z.boolean(),
  criadoEm: z.string(),
});
export type StaffView = z.infer<typeof staffViewSchema>;

/**
 * How a one-time password link reached its person: e-mailed when SMTP_URL is configured, otherwise
 * (or when the mail server refused it) answered here for the admin to hand over. An e-mailed link
 * is never in the answer.
 */
export const passwordLinkSchema = z.object({
  entrega: z.enum(['email', 'manual']).meta({ description: "`email`: sent to the user's address; `manual`: the link is in `link`." }),
  link: z
    .string()
    .optional()
    .meta({ description: 'One-time link to set a password, valid 24 h, when `entrega` is `manual`. Hand it to the person.' }),
  emailFalhou: z
    .boolean()
    .optional()
    .meta({ description: 'true when e-mail is configured but the mail server did not accept the message: the link is answered instead.' }),
  expiraEm: z.string(),
});
export type PasswordLink = z.infer<typeof passwordLinkSchema>;

export const staffCreatedSchema = staffViewSchema.extend({ definicaoSenha: passwordLinkSchema });

export const setPasswordSchema = z.strictObject({
  token: z.string().min(20).max(200),
  senha: z.string().min(1).max(200),
});

export const changePasswordSchema = z.strictObject({
  senhaAtual: z.string().min(1).max(200),
  novaSenha: z.string().min(1).max(200),
});
