import { z } from 'zod';
import { IE_LADO, IE_OPCAO, MAX_DURATION_MINUTES, NM_USUARIO_MAX, TOKEN_RESERVA_MAX } from './fields';
import { hasControlCharacters, hasInvisibleCharacters, noControlCharacters, noInvisibleCharacters } from '@/lib/validation/text';

/**
 * The slot reservation contract (service-interface.md §2.2, §2.3, §7.2). No server imports: the
 * console's form validates with this same schema before it calls the route that validates again.
 */

/** A "long" of the contract: a JSON integer, never a numeric string or a fraction. */
// zod 4's int() also refuses integers beyond 2^53, which JSON numbers cannot carry exactly.
const longId = z.number().int().positive();
const longCode = z.number().int().nonnegative();

export { IE_LADO, IE_OPCAO, MAX_DURATION_MINUTES, NM_USUARIO_MAX, TOKEN_RESERVA_MAX };
export { CODIGO_P_STATUS, CODIGOS_P, isCodigoP, type CodigoP } from './fields';

export const slotReservationSchema = z
  .strictObject({
    nrSeqAgenda: longId,
    nrSeqProcInterno: longId,
    ieLado: z.enum(IE_LADO).optional(),
    nrMinDuracao: z.number().int().min(1).max(MAX_DURATION_MINUTES),
    ieOpcao: z.enum(IE_OPCAO),
    tokenReservaCanc: z
      .string()
      .min(1)
      .max(TOKEN_RESERVA_MAX)
      .refine((value) => !hasControlCharacters(value), noControlCharacters)
      .refine((value) => !hasInvisibleCharacters(value), noInvisibleCharacters)
      .optional(),
    cdPessoaFisica: longId,
    cdConvenio: longCode,
    cdCategoria: longCode,
    cdPlano: longCode,
    cdUsuarioConvenio: z
      .string()
      .min(1)
      .max(40)
      .refine((value) => value.trim() === value, { params: { key: 'noSurroundingSpaces' } })
      .refine((value) => !hasControlCharacters(value), noControlCharacters)
      .refine((value) => !hasInvisibleCharacters(value), noInvisibleCharacters),
    nmUsuario: z
      .string()
      .min(1)
      .max(NM_USUARIO_MAX)
      .refine((value) => value.trim() === value, { params: { key: 'noSurroundingSpaces' } })
      .refine((value) => !hasControlCharacters(value), noControlCharacters)
      .refine((value) => !hasInvisibleCharacters(value), noInvisibleCharacters),
  })
  .superRefine(
    (body, ctx) => {
      if (body.ieOpcao === 'CR' && body.tokenReservaCanc === undefined) {
        ctx.addIssue({ code: 'custom', path: ['tokenReservaCanc'], params: { key: 'tokenRequiredForRelease' } });
      }
      if (body.ieOpcao === 'R' && body.tokenReservaCanc !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['tokenReservaCanc'], params: { key: 'tokenOnlyForRelease' } });
      }
    },
    // Run even while other fields are wrong, so a caller (or the form) sees the token rule together
    // with every other error instead of after fixing them. It only reads ieOpcao and the token.
    { when: (payload) => isPlainObject(payload.value) },
  );

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type SlotReservationRequest = z.infer<typeof slotReservationSchema>;

/** The procedure's answer (§2.3); every field is a string, as the back-end returns them. */
export const slotReservationResponseSchema = z.object({
  IE_RESERVADO_P: z.enum(['S', 'N']),
  TOKEN_RESERVA_P: z.string(),
  CODIGO_P: z.string(),
  MENSAGEM_P: z.string(),
});

export type SlotReservationResponse = z.infer<typeof slotReservationResponseSchema>;

/** One free slot as `GET /api/v1/agendamentos/slots-livres` lists it, in the back-end's naming. */
export const freeSlotSchema = z.object({
  NR_SEQ_AGENDA: z.number(),
  CD_AGENDA: z.number(),
  DT_AGENDA: z.string(),
  NR_MIN_DURACAO: z.number(),
});

export type FreeSlot = z.infer<typeof freeSlotSchema>;

/**
 * One exam of `GET /api/v1/agendamentos/procedimentos`, in the back-end's naming: the code to send
 * as nrSeqProcInterno, its name, its usual duration and whether it needs ieLado ('S') or not ('N').
 */
export const procedureSchema = z.object({
  NR_SEQ_PROC_INTERNO: z.number().int().positive(),
  DS_PROCEDIMENTO: z.string(),
  NR_MIN_DURACAO: z.number().int().positive(),
  IE_LADO_OBRIGATORIO: z.enum(['S', 'N']),
});

export type Procedure = z.infer<typeof procedureSchema>;

const isoDateTime = z.iso.datetime({ offset: true });

/** Query of the free-slot listing; every filter optional. */
export const freeSlotQuerySchema = z.strictObject({
  de: isoDateTime.optional(),
  ate: isoDateTime.optional(),
  cdAgenda: z.coerce.number().int().positive().optional(),
  limite: z.coerce.number().int().min(1).max(500).default(100),
});

export type FreeSlotQuery = z.infer<typeof freeSlotQuerySchema>;

/**
 * What a slot of `GET /api/v1/agendamentos/slots` is at the time of asking: `livre`, free to
 * reserve; `reservado`, held by an active reservation made through the service that the caller can
 * see (staff: anyone's; an API client: its own); `ocupado`, not free for any other reason (held by
 * someone else, or covered by a longer reservation that starts in an earlier slot).
 */
const SLOT_STATES = ['livre', 'reservado', 'ocupado'] as const;

/** One slot of the schedule grid: the free slot's fields, its state, and when a hold on it lapses. */
export const slotSchema = freeSlotSchema.extend({
  situacao: z.enum(SLOT_STATES),
  /** With `reservado`, when the hold lapses and frees the slot; null otherwise, or when it never lapses. */
  expiraEm: z.string().meta({ format: 'date-time' }).nullable(),
});

export type Slot = z.infer<typeof slotSchema>;

/** The longest window one schedule-grid request may span: a week. */
export const MAX_SLOT_WINDOW_DAYS = 7;
export const MAX_SLOT_GRID_LIMIT = 2000;

/** A window of at most a week, `de` to `ate`: the schedule grid's, and its agendas'. */
function checkWindow(query: { de: string; ate: string }, ctx: z.RefinementCtx) {
  const span = Date.parse(query.ate) - Date.parse(query.de);
  if (span < 0) ctx.addIssue({ code: 'custom', path: ['ate'], params: { key: 'windowReversed' } });
  else if (span > MAX_SLOT_WINDOW_DAYS * 86_400_000)
    ctx.addIssue({ code: 'custom', path: ['ate'], params: { key: 'windowTooLong', max: MAX_SLOT_WINDOW_DAYS } });
}

/** Query of the schedule grid: a window of at most a week, every slot in it whatever its state. */
export const slotQuerySchema = z
  .strictObject({
    de: isoDateTime,
    ate: isoDateTime,
    cdAgenda: z.coerce.number().int().positive().optional(),
    limite: z.coerce.number().int().min(1).max(MAX_SLOT_GRID_LIMIT).default(1000),
  })
  .superRefine(checkWindow);

export type SlotQuery = z.infer<typeof slotQuerySchema>;

/**
 * Query of the agendas with a slot in a window (the calendar's day view asks the grid for the
 * agendas it shows, not a whole day of every agenda).
 */
export const agendaQuerySchema = z.strictObject({ de: isoDateTime, ate: isoDateTime }).superRefine(checkWindow);

export type AgendaQuery = z.infer<typeof agendaQuerySchema>;

/** An agenda with at least one slot in the window, whatever its state. */
export const agendaSchema = z.object({ CD_AGENDA: z.number().int().positive() });

export type Agenda = z.infer<typeof agendaSchema>;
