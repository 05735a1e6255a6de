import 'server-only';
import { z } from 'zod';
import { ownerKey } from '@/lib/auth/principal';
import { env } from '@/lib/config/env';
import type { AuthenticatedHandler } from '@/lib/http/operation';
import { inFlightTimeoutFor } from '@/lib/idempotency/constants';
import { idempotencyKeyOf, idempotent, REPLAYED_HEADER } from '@/lib/idempotency/idempotent';
import { maxReservationCallMs } from '@/lib/scheduling/call-duration';
import { listAgendas, listFreeSlots, listProcedures, listSlots, recentReservations, reserveOrRelease } from '@/lib/scheduling/service';
import { releaseRecentReservation } from '@/lib/scheduling/recent-release';
import { textPathParam } from '@/lib/validation/path-params';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_CHARACTERS, MAX_IDEMPOTENCY_KEY_LENGTH } from '@/lib/idempotency/key-syntax';
import { queryParameters } from '@/lib/openapi/fragments';
import { recentReservationSchema, recentReservationsQuerySchema } from '@/lib/scheduling/recent-reservations';
import {
  agendaQuerySchema,
  agendaSchema,
  freeSlotQuerySchema,
  freeSlotSchema,
  MAX_SLOT_GRID_LIMIT,
  MAX_SLOT_WINDOW_DAYS,
  procedureSchema,
  slotQuerySchema,
  slotSchema,
  slotReservationResponseSchema,
  slotReservationSchema,
} from '@/lib/scheduling/contract';
import { afterReservation } from '@/lib/waitlist/service';
import { answer } from '@/lib/http/answers';
import { operation } from '@/lib/http/operation';

/**
 * The reservation POST's answers (contract §7.2): the procedure's four fields with the status its
 * CODIGO_P maps to, CODIGO_P 9 included (the service's refusal carries them); problems for the rest.
 */
const procedureAnswer = (description: string, extra: { orProblem?: boolean } = {}) =>
  answer.json(slotReservationResponseSchema, description, extra);
const reservationResponses = {
  200: answer.json(slotReservationResponseSchema, 'Reserved (CODIGO_P 0) or released (CODIGO_P 1).', {
    headers: {
      'Idempotency-Replayed': {
        description: '`true` when this is the stored answer of an earlier request with the same key.',
        schema: { type: 'string', enum: ['true'] },
      },
    },
  }),
  404: procedureAnswer('Slot not found (CODIGO_P 3).'),
  409: procedureAnswer(
    'Slot unavailable, release not possible or exam already booked (CODIGO_P 2, 4, 5); or, as problem+json, a request with the same Idempotency-Key still in progress (retry after Retry-After seconds).',
    { orProblem: true },
  ),
  422: answer.problem('The Idempotency-Key was already used with a different body.'),
  429: answer.problem(
    'The client already holds the most active reservations allowed (MAX_ACTIVE_HOLDS_PER_CLIENT); nothing was reserved. Retry-After says when the oldest hold lapses.',
  ),
  500: procedureAnswer('Internal error of the back-end (CODIGO_P 9, generic message), or an unexpected error as problem+json.', {
    orProblem: true,
  }),
  502: answer.problem('The scheduling back-end answered outside the contract.'),
} as const;

/**
 * The reservation POST (contract §4.2), served at the contract's endpoint and at the sample
 * requests' path shape: two operations, one handler. Retries are safe with an `Idempotency-Key`,
 * scoped to the caller (ownerKey); a key used on one path replays on the other, they are one
 * operation. A key stays in flight as long as the configured back-end may take for one call.
 * Refusals (the hold quota, a failed back-end) let the key go, so the same request may be sent again.
 */
type ReservationPost = {
  method: 'POST';
  path: string;
  body: typeof slotReservationSchema;
  capability: 'scheduling';
  responses: typeof reservationResponses;
  doc?: Record<string, unknown>;
};

const reserveOrReleaseSlot: AuthenticatedHandler<ReservationPost> = async ({ request, principal, body }) => {
  const key = idempotencyKeyOf(request);
  const reservation = await body();
  const inFlightTimeoutMs = inFlightTimeoutFor(maxReservationCallMs(env()));
  const { answer: outcome, replayed } = await idempotent({ owner: ownerKey(principal), key, body: reservation, inFlightTimeoutMs }, () =>
    reserveOrRelease(principal, reservation),
  );
  // Its scheduling event and, for a release, the waitlist's pass; not for a replay, which changed nothing.
  if (!replayed) await afterReservation(principal, reservation, outcome.body);
  return replayed ? { ...outcome, headers: { [REPLAYED_HEADER]: 'true' } } : outcome;
};

/** A recent reservation, by the token its reservation answered (TOKEN_RESERVA_P). */
const recentReservationParams = z.strictObject({ token: textPathParam('The reservation’s TOKEN_RESERVA_P.') });

/** The one-click release: the procedure's four fields like the POST, and the waitlist's pass after it. */
const releaseRecentResponses = {
  200: reservationResponses[200],
  404: procedureAnswer('Slot not found (CODIGO_P 3); or, as problem+json, no recent reservation you may see has this token.', {
    orProblem: true,
  }),
  409: procedureAnswer(
    'The procedure refused the release (CODIGO_P 2, 4, 5); or, as problem+json, the reservation is no longer releasable (`reservation-released`, `reservation-expired`) or its patient identifiers are not kept (`release-identifiers-not-kept`: made by an API client).',
    { orProblem: true },
  ),
  500: reservationResponses[500],
  502: reservationResponses[502],
} as const;

/** The reservation POST's documentation; both of its paths share it (one handler). */
function reservationDoc(summary: string) {
  return {
    summary,
    tags: ['Scheduling'],
    description:
      'Reserves (ieOpcao R) or releases (ieOpcao CR) a free exam slot. tokenReservaCanc is required with CR (the TOKEN_RESERVA_P of the reservation) and refused with R; ieLado is required when the exam requires laterality. The HTTP status follows CODIGO_P (0, 1 → 200; 2, 4, 5 → 409; 3 → 404; 9 → 500), always with the four-field body. With an Idempotency-Key, a retry with the same body within 24 h answers the stored response again (Idempotency-Replayed: true) without reserving twice.',
    parameters: [
      {
        name: IDEMPOTENCY_HEADER,
        in: 'header',
        required: false,
        schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH, pattern: `^${IDEMPOTENCY_KEY_CHARACTERS}+$` },
        description: 'Any unique value per logical request (a UUID is a good choice), scoped to your client.',
      },
    ],
  };
}

/** Free slots, the exams they can be reserved for, and their reservation or release. */
export const schedulingOperations = {
  /** Free slots, soonest first: `?de=&ate=` (ISO 8601 with offset), `?cdAgenda=`, `?limite=` (≤ 500). */
  listFreeSlots: operation(
    {
      method: 'GET',
      path: '/api/v1/agendamentos/slots-livres',
      capability: 'scheduling',
      query: freeSlotQuerySchema,
      responses: {
        200: answer.json(z.array(freeSlotSchema), 'Free slots; NR_SEQ_AGENDA is the nrSeqAgenda to reserve.'),
        501: answer.problem('The configured scheduling back-end has no free-slot listing (ORACLE_FREE_SLOTS_VIEW unset).'),
      },
      doc: {
        summary: 'Free slots, soonest first',
        tags: ['Scheduling'],
        parameters: queryParameters(freeSlotQuerySchema, {
          de: 'From this instant (ISO 8601 with offset).',
          ate: 'Until this instant (ISO 8601 with offset).',
          cdAgenda: 'Only this agenda.',
          limite: 'At most this many slots.',
        }),
      },
    },
    async ({ query, principal }) => ({ status: 200, body: await listFreeSlots(query, principal) }),
  ),
  /** Every slot of a window of at most a week, free or not, with its state: the console's calendar. */
  listSlots: operation(
    {
      method: 'GET',
      path: '/api/v1/agendamentos/slots',
      capability: 'scheduling',
      query: slotQuerySchema,
      responses: {
        200: answer.json(z.array(slotSchema), 'Slots, soonest first, each with its situacao.'),
        400: answer.problem('A filter is invalid, or the window is reversed or longer than a week.'),
      },
      doc: {
        summary: 'Every slot of a window, with its state',
        tags: ['Scheduling'],
        description: `The slots starting from de (or now, if later) until ate, soonest first, whatever their state: situacao livre (free: NR_SEQ_AGENDA is the nrSeqAgenda to reserve), reservado (held by an active reservation you may see: an API client its own, staff anyone's; expiraEm says when the hold lapses, null when it does not) or ocupado (not free: held by someone else, or covered by a longer reservation starting in an earlier slot). The window spans at most ${MAX_SLOT_WINDOW_DAYS} days. On the hospital's Oracle back-end, whose free-slot view (ORACLE_FREE_SLOTS_VIEW) lists free slots only, every slot answered is livre: taken and held slots are absent rather than marked. /slots-livres lists the free slots alone.`,
        parameters: queryParameters(slotQuerySchema, {
          de: 'From this instant (ISO 8601 with offset).',
          ate: `Until this instant (ISO 8601 with offset), at most ${MAX_SLOT_WINDOW_DAYS} days after de.`,
          cdAgenda: 'Only this agenda.',
          limite: `At most this many slots (≤ ${MAX_SLOT_GRID_LIMIT}).`,
        }),
      },
    },
    async ({ query, principal }) => ({ status: 200, body: await listSlots(query, principal) }),
  ),
  /** The agendas with a slot in a window of at most a week: the calendar's day view pages through them. */
  listAgendas: operation(
    {
      method: 'GET',
      path: '/api/v1/agendamentos/agendas',
      capability: 'scheduling',
      query: agendaQuerySchema,
      responses: {
        200: answer.json(z.array(agendaSchema), 'Agendas, by CD_AGENDA.'),
        400: answer.problem('A filter is invalid, or the window is reversed or longer than a week.'),
      },
      doc: {
        summary: 'The agendas with a slot in a window',
        tags: ['Scheduling'],
        description: `The agendas (CD_AGENDA) with at least one slot starting from de (or now, if later) until ate, whatever its state, by code: what /slots would answer for the window, one entry per agenda. The window spans at most ${MAX_SLOT_WINDOW_DAYS} days. Ask /slots with cdAgenda for the slots of the ones to show.`,
        parameters: queryParameters(agendaQuerySchema, {
          de: 'From this instant (ISO 8601 with offset).',
          ate: `Until this instant (ISO 8601 with offset), at most ${MAX_SLOT_WINDOW_DAYS} days after de.`,
        }),
      },
    },
    async ({ query, principal }) => ({ status: 200, body: await listAgendas(query, principal) }),
  ),
  /** The exams a slot can be reserved for (nrSeqProcInterno, name, usual duration, laterality). */
  listProcedures: operation(
    {
      method: 'GET',
      path: '/api/v1/agendamentos/procedimentos',
      capability: 'scheduling',
      responses: {
        200: answer.json(z.array(procedureSchema), 'Exams, by name.'),
        501: answer.problem('The configured scheduling back-end has no exam listing; send nrSeqProcInterno from the hospital system.'),
      },
      doc: {
        summary: 'Exams a slot can be reserved for',
        tags: ['Scheduling'],
        description:
          'NR_SEQ_PROC_INTERNO is the nrSeqProcInterno to send; NR_MIN_DURACAO the exam’s usual duration in minutes; IE_LADO_OBRIGATORIO = S means the reservation must carry ieLado. Answers 501 when the configured back-end (the hospital’s Oracle) has no exam listing.',
      },
    },
    async ({ principal }) => ({ status: 200, body: await listProcedures(principal) }),
  ),
  listRecentReservations: operation(
    {
      method: 'GET',
      path: '/api/v1/agendamentos/reservas-recentes',
      capability: 'scheduling',
      query: recentReservationsQuerySchema,
      responses: { 200: answer.json(z.array(recentReservationSchema), 'Reservations, newest first.') },
      doc: {
        summary: 'Recent reservations made through the service, with their state',
        tags: ['Scheduling'],
        description:
          'From the reservation log, newest first: every successful reservation with its state (active, released, or expired once its hold lapsed) and when its hold expires. Patient identifiers come masked. Staff see everyone’s; an API client sees only its own.',
        parameters: queryParameters(recentReservationsQuerySchema, { limite: 'At most this many reservations.' }),
      },
    },
    async ({ query, principal }) => ({ status: 200, body: await recentReservations(principal, query.limite) }),
  ),
  releaseRecentReservation: operation(
    {
      method: 'POST',
      path: '/api/v1/agendamentos/reservas-recentes/{token}/liberacao',
      params: recentReservationParams,
      capability: 'scheduling',
      responses: releaseRecentResponses,
      doc: {
        summary: 'Release a recent reservation in one step',
        tags: ['Scheduling'],
        description:
          'Releases (ieOpcao CR) an active reservation from the recent list with what the service kept for it: the console’s one-click release. A reservation made by staff keeps its patient identifiers sealed (encrypted and bound to it) until it is released or its hold lapses; one made by an API client keeps none, so its release is the reservation POST with ieOpcao CR. The answer is the procedure’s four fields with the status its CODIGO_P maps to, as for the POST; a released slot is then offered to the waitlist.',
      },
    },
    async ({ principal, params }) => {
      const { request, outcome } = await releaseRecentReservation(principal, params.token);
      await afterReservation(principal, request, outcome.body);
      return outcome;
    },
  ),
  reserveOrReleaseSlot: operation(
    {
      method: 'POST',
      path: '/api/v1/agendamentos/slots-livres/reservar',
      body: slotReservationSchema,
      capability: 'scheduling',
      responses: reservationResponses,
      doc: reservationDoc('Reserve or release a slot'),
    },
    (api) => reserveOrReleaseSlot(api),
  ),
  // The sample requests of §4.2 use this path shape; it behaves exactly like /slots-livres/reservar.
  reserveOrReleaseSlotSamplePath: operation(
    {
      method: 'POST',
      path: '/api/v1/agendamentos/exames/slots-livres/reservas',
      body: slotReservationSchema,
      capability: 'scheduling',
      responses: reservationResponses,
      doc: reservationDoc('Reserve or release a slot (path of the contract’s sample requests; identical behaviour)'),
    },
    (api) => reserveOrReleaseSlot(api),
  ),
};
