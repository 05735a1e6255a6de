import { z } from 'zod';

/**
 * The partner portal's API contract (issue 30): issuing a link, opening a session with it, and the
 * links and sessions staff list and revoke. No server imports: the console's forms use it too.
 */

/** A link's token as the portal's entry page reads it from its URL's fragment: 43 base64url characters (32 bytes). */
export const portalTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token of a portal link');

export const portalLinkCreateSchema = z.strictObject({
  usuarioId: z
    .guid()
    .transform((value) => value.toLowerCase())
    .optional()
    .meta({ description: 'The tenant; required for staff, your own (or omitted) for an API client.' }),
  sistemaOrigem: z.number().int().optional().meta({ description: 'Required for staff; your own (or omitted) for an API client.' }),
  somenteLeitura: z
    .boolean()
    .default(false)
    .meta({ description: 'The session it opens may read but not change anything (no edits, tests, redeliveries or secrets).' }),
});
export type PortalLinkCreate = z.infer<typeof portalLinkCreateSchema>;

export const portalLinkSchema = z.object({
  id: z.guid().meta({ description: 'The link’s id, to list and revoke it by; not the token.' }),
  url: z.string().meta({
    description:
      'Open it once, before expiraEm, in a browser or an iframe of an allowed origin. The token is in the fragment, which browsers never send to a server.',
  }),
  usuarioId: z.guid(),
  somenteLeitura: z.boolean(),
  expiraEm: z.string().meta({ format: 'date-time' }),
});
export type PortalLink = z.infer<typeof portalLinkSchema>;

export const portalSessionOpenSchema = z.strictObject({ token: portalTokenSchema });

export const portalSessionSchema = z.object({
  id: z.guid(),
  usuarioId: z.guid(),
  somenteLeitura: z.boolean(),
  expiraEm: z.string().meta({ format: 'date-time' }),
});
export type PortalSessionView = z.infer<typeof portalSessionSchema>;

/** What staff see of a tenant's portal access: links not yet opened and sessions not yet over. */
export const portalAccessSchema = z.object({
  links: z.array(
    portalLinkSchema.omit({ url: true }).extend({ emitidoPor: z.string(), criadoEm: z.string().meta({ format: 'date-time' }) }),
  ),
  sessoes: z.array(portalSessionSchema.extend({ criadoEm: z.string().meta({ format: 'date-time' }) })),
});
export type PortalAccess = z.infer<typeof portalAccessSchema>;

export const portalAccessQuerySchema = z.strictObject({
  usuarioId: z
    .guid()
    .transform((value) => value.toLowerCase())
    .optional(),
});

export const portalLinkParams = z.strictObject({ linkId: z.guid() });
export const portalSessionParams = z.strictObject({ sessaoId: z.guid() });
