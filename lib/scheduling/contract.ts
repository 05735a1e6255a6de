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
