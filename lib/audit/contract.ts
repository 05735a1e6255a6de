import { z } from 'zod';

/**
 * The audit trail as operators read it (`GET /api/v1/auditoria`). No server imports: the console's
 * audit page filters with this same schema.
 */
export const AUDIT_ACTIONS = [
  'webhook.create',
  'webhook.update',
  'webhook.delete',
  'webhook.secret_rotate',
  'client.create',
  'client.rotate',
  'client.revoke',
  'staff.create',
  'staff.update',
  'staff.password_link',
  'staff.password_change',
  'staff.sso_create',
  'staff.sso_roles',
  'slot.reserve',
  'slot.release',
  'portal.link_issue',
  'portal.link_revoke',
  'portal.session_open',
  'portal.session_revoke',
  'portal.session_end',
  'portal.request',
  'waitlist.add',
  'waitlist.remove',
  'waitlist.move',
  'waitlist.offer',
  'waitlist.accept',
  'waitlist.decline',
  'waitlist.expire',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditQuerySchema = z.strictObject({
  acao: z.enum(AUDIT_ACTIONS).optional(),
  /** API client id or staff e-mail. */
  ator: z.string().min(1).max(200).optional(),
  /** `webhook:<id>`, `client:<clientId>` or `slot:<nrSeqAgenda>`. */
  alvo: z.string().min(1).max(100).optional(),
  /** Entries strictly older than this instant, for paging back. */
  antes: z.iso.datetime({ offset: true }).optional(),
  limite: z.coerce.number().int().min(1).max(500).default(50),
});

export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  em: z.string().meta({ format: 'date-time' }),
  tipoAtor: z.enum(['api-client', 'staff']),
  /** API client id or staff e-mail: what `?ator=` filters on. */
  ator: z.string(),
  acao: z.enum(AUDIT_ACTIONS),
  alvo: z.string(),
  resultado: z.string(),
  statusHttp: z.number().int().nullable(),
  antes: z.unknown().meta({
    description:
      'Values before the change, header values and patient identifiers masked, reservation tokens (TOKEN_RESERVA_P, tokenReservaCanc) to their last 4 characters.',
  }),
  depois: z.unknown().meta({ description: 'Values after the change (or the refused rule codes), masked the same way.' }),
});

export type AuditEntry = z.infer<typeof auditEntrySchema>;
