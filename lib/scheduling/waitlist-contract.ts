import { z } from 'zod';
import { hasControlCharacters, noControlCharacters } from '@/lib/validation/text';
import { slotReservationSchema } from './contract';

/**
 * The scheduling waitlist (issue 48): a patient waiting for an exam, and the offers of freed slots
 * made to them. No server imports: the console's form validates with the same schema as the route.
 */

/** An entry's window reaches at most this far (from `de` to `ate`). */
export const MAX_WAITLIST_WINDOW_DAYS = 180;
/** Agendas one entry may name; none named: any agenda. */
export const MAX_WAITLIST_AGENDAS = 50;
export const MAX_MOVE_REASON_LENGTH = 500;

/**
 * Where an entry stands: `aguardando` in line; `reservando` while a freed slot is being reserved
 * for it; `ofertada` with an offer out; `aceita` once its partner accepted the offer; `recusada`,
 * `expirada` when an offer was declined or its deadline passed (the entry leaves the line and the
 * slot goes to the next); `removida` when taken off the list; `invalida` when the back-end refused
 * its exam, side or duration, so no slot can ever be reserved for it.
 */
export const WAITLIST_ENTRY_STATES = [
  'aguardando',
  'reservando',
  'ofertada',
  'aceita',
  'recusada',
  'expirada',
  'removida',
  'invalida',
] as const;
export type WaitlistEntryState = (typeof WAITLIST_ENTRY_STATES)[number];
/** The states that count against a tenant's quota (WAITLIST_MAX_ENTRIES_PER_TENANT): still in line. */
export const OPEN_ENTRY_STATES = ['aguardando', 'reservando', 'ofertada'] as const satisfies readonly WaitlistEntryState[];

/**
 * Where an offer stands: `reservando` while the back-end is asked; `ofertada`, out until its deadline;
 * `aceita`; `recusada`, `expirada`, `removida` once released (`liberando` while the release is
 * under way); `falhou` when the back-end could not reserve it.
 */
export const WAITLIST_OFFER_STATES = [
  'reservando',
  'ofertada',
  'liberando',
  'aceita',
  'recusada',
  'expirada',
  'removida',
  'falhou',
] as const;
export type WaitlistOfferState = (typeof WAITLIST_OFFER_STATES)[number];

const isoDateTime = z.iso.datetime({ offset: true });
const reservation = slotReservationSchema.shape;

export const waitlistEntryCreateSchema = z
  .strictObject({
    usuarioId: z
      .guid()
      .transform((value) => value.toLowerCase())
      .optional()
      .meta({ description: 'The tenant the patient is waited for: staff must name it; an API client may only name its own.' }),
    nrSeqProcInterno: reservation.nrSeqProcInterno,
    ieLado: reservation.ieLado,
    nrMinDuracao: reservation.nrMinDuracao,
    cdAgendas: z
      .array(z.number().int().positive())
      .min(1)
      .max(MAX_WAITLIST_AGENDAS)
      .optional()
      .meta({ description: `The agendas (CD_AGENDA) the patient accepts, at most ${MAX_WAITLIST_AGENDAS}; absent: any agenda.` }),
    de: isoDateTime.meta({ description: 'The earliest start the patient accepts.' }),
    ate: isoDateTime.meta({ description: `The latest start the patient accepts; at most ${MAX_WAITLIST_WINDOW_DAYS} days after \`de\`.` }),
    cdPessoaFisica: reservation.cdPessoaFisica,
    cdConvenio: reservation.cdConvenio,
    cdCategoria: reservation.cdCategoria,
    cdPlano: reservation.cdPlano,
    cdUsuarioConvenio: reservation.cdUsuarioConvenio,
    nmUsuario: reservation.nmUsuario,
  })
  .superRefine((entry, ctx) => {
    const span = Date.parse(entry.ate) - Date.parse(entry.de);
    if (span <= 0) ctx.addIssue({ code: 'custom', path: ['ate'], params: { key: 'windowReversed' } });
    else if (span > MAX_WAITLIST_WINDOW_DAYS * 86_400_000)
      ctx.addIssue({ code: 'custom', path: ['ate'], params: { key: 'windowTooLong', max: MAX_WAITLIST_WINDOW_DAYS } });
  });

export type WaitlistEntryCreate = z.output<typeof waitlistEntryCreateSchema>;

export const waitlistOfferSchema = z.object({
  id: z.guid(),
  nrSeqAgenda: z.number().int(),
  cdAgenda: z.number().int(),
  dtAgenda: z.string().meta({ description: 'When the exam starts (the back-end’s DT_AGENDA).' }),
  tokenReserva: z
    .string()
    .nullable()
    .meta({ description: 'TOKEN_RESERVA_P of the hold made for the entry, while the offer is out or once accepted; null otherwise.' }),
  prazo: z.string().meta({ format: 'date-time' }).nullable().meta({ description: 'Until when the offer may be accepted.' }),
  situacao: z.enum(WAITLIST_OFFER_STATES),
  criadaEm: z.string().meta({ format: 'date-time' }),
});
export type WaitlistOffer = z.infer<typeof waitlistOfferSchema>;

export const waitlistEntrySchema = z.object({
  id: z.guid(),
  usuarioId: z.string().meta({ format: 'uuid' }),
  nrSeqProcInterno: z.number().int(),
  ieLado: z.enum(['E', 'D', 'A']).nullable(),
  nrMinDuracao: z.number().int(),
  cdAgendas: z.array(z.number().int()).nullable(),
  de: z.string().meta({ format: 'date-time' }),
  ate: z.string().meta({ format: 'date-time' }),
  cdPessoaFisica: z.string().meta({ description: 'Masked: its last 3 digits.' }),
  cdUsuarioConvenio: z.string().meta({ description: 'Masked: its last 4 characters.' }),
  cdConvenio: z.number().int(),
  cdCategoria: z.number().int(),
  cdPlano: z.number().int(),
  nmUsuario: z.string(),
  situacao: z.enum(WAITLIST_ENTRY_STATES),
  posicao: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'Its place among its tenant’s waiting entries for the exam (1 first); null once out of line.' }),
  criadaEm: z.string().meta({ format: 'date-time' }),
  oferta: waitlistOfferSchema.nullable().meta({ description: 'The entry’s latest offer, if any.' }),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;

export const waitlistQuerySchema = z.strictObject({
  nrSeqProcInterno: z.coerce.number().int().positive().optional(),
  situacao: z.enum(WAITLIST_ENTRY_STATES).optional(),
  limite: z.coerce.number().int().min(1).max(500).default(100),
});
export type WaitlistQuery = z.infer<typeof waitlistQuerySchema>;

export const waitlistMoveSchema = z.strictObject({
  posicao: z.number().int().min(1).meta({ description: 'The place in the exam’s line, across tenants (1 first).' }),
  motivo: z
    .string()
    .trim()
    .min(1)
    .max(MAX_MOVE_REASON_LENGTH)
    .refine((value) => !hasControlCharacters(value), noControlCharacters)
    .meta({ description: 'Why: kept in the audit trail.' }),
});
export type WaitlistMove = z.infer<typeof waitlistMoveSchema>;

/** One exam's line as the console shows it: its waiting entries in order, and the offers out. */
export const waitlistLineSchema = z.object({
  nrSeqProcInterno: z.number().int(),
  aguardando: z.array(waitlistEntrySchema),
  ofertas: z.array(waitlistEntrySchema),
});
export type WaitlistLine = z.infer<typeof waitlistLineSchema>;
