import { z } from 'zod';

/**
 * Recent reservations as the read model (table `reservation_log`) keeps them: every successful
 * reserve (CODIGO_P 0) with its owner, marked released when its release succeeded (CODIGO_P 1),
 * and expired once a hold the back-end lets lapse is past its `expiraEm`. Patient identifiers are
 * stored masked; a reservation staff made keeps them sealed while it is releasable, so it is
 * released in one step (`liberacaoDireta`), and any other is released by sending them again.
 */
const RESERVATION_STATES = ['active', 'released', 'expired'] as const;

export const recentReservationSchema = z.object({
  token: z.string(),
  em: z.string().meta({ format: 'date-time' }),
  /** API client id or staff e-mail of who reserved it. */
  ator: z.string(),
  estado: z.enum(RESERVATION_STATES),
  liberadaEm: z.string().nullable(),
  /** When an unreleased hold frees its slot; null when the back-end holds it until released. */
  expiraEm: z.string().meta({ format: 'date-time' }).nullable(),
  nrSeqAgenda: z.number(),
  nrSeqProcInterno: z.number().nullable(),
  nrMinDuracao: z.number().nullable(),
  ieLado: z.string().nullable(),
  cdConvenio: z.number().nullable(),
  cdCategoria: z.number().nullable(),
  cdPlano: z.number().nullable(),
  nmUsuario: z.string().nullable(),
  /** Masked as stored, for recognition only. */
  cdPessoaFisica: z.string().nullable(),
  cdUsuarioConvenio: z.string().nullable(),
  /** Whether the service kept what releasing it needs: POST …/reservas-recentes/{token}/liberacao then releases it. */
  liberacaoDireta: z.boolean(),
});

export type RecentReservation = z.infer<typeof recentReservationSchema>;
export type ReservationState = RecentReservation['estado'];

export const recentReservationsQuerySchema = z.strictObject({
  limite: z.coerce.number().int().min(1).max(200).default(25),
});

/** A stored reservation's state at `now`: an unreleased hold past its expiry has lapsed. */
export function reservationState(stored: 'active' | 'released', expiresAt: number | null, now: number): ReservationState {
  if (stored === 'active' && expiresAt !== null && expiresAt <= now) return 'expired';
  return stored;
}
