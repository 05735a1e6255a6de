import { z } from 'zod';
import { KNOWN_SCOPES } from '@/lib/auth/scopes';
import { hasControlCharacters, hasInvisibleCharacters, noControlCharacters, noInvisibleCharacters } from '@/lib/validation/text';

/**
 * API clients as admins manage them (issue 11 §2). No server imports: the console's form uses the
 * same schema as the route. A secret appears only in the answer that created or rotated it.
 */
export const apiClientCreateSchema = z.strictObject({
  clientId: z
    .string()
    .min(3)
    .max(100)
    .refine((value) => /^[a-z0-9][a-z0-9._-]*$/.test(value), { params: { key: 'clientIdFormat' } })
    .meta({ description: 'Lowercase letters, digits, dot, dash and underscore; chosen once.' }),
  nome: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .refine((value) => !hasControlCharacters(value), noControlCharacters)
    .refine((value) => !hasInvisibleCharacters(value), noInvisibleCharacters),
  usuarioId: z.guid().transform((value) => value.toLowerCase()),
  sistemaOrigem: z.number().int(),
  // Refused with its own reason: a client without scopes could obtain tokens good for nothing.
  escopos: z
    .array(z.enum(KNOWN_SCOPES as [string, ...string[]]))
    .refine((list) => list.length > 0, { params: { key: 'scopesRequired' } })
    .meta({ minItems: 1 })
    .transform((escopos) => [...new Set(escopos)]),
});
export type ApiClientCreate = z.infer<typeof apiClientCreateSchema>;

export const apiClientViewSchema = z.object({
  clientId: z.string(),
  nome: z.string(),
  usuarioId: z.string(),
  sistemaOrigem: z.number().int(),
  escopos: z.array(z.string()),
  criadoEm: z.string(),
  revogadoEm: z.string().nullable(),
  ultimoTokenEm: z.string().nullable().meta({ description: 'When the client last obtained a token.' }),
});
export type ApiClientView = z.infer<typeof apiClientViewSchema>;

export const apiClientWithSecretSchema = apiClientViewSchema.extend({
  clientSecret: z.string().meta({ description: 'Shown this once; only its hash is stored.' }),
});
export type ApiClientWithSecret = z.infer<typeof apiClientWithSecretSchema>;
