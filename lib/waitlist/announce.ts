import 'server-only';
import type { Knex } from 'knex';
import type { Principal } from '@/lib/auth/principal';
import { log, redactError } from '@/lib/log';
import type { SlotReservationRequest, SlotReservationResponse } from '@/lib/scheduling/contract';
import type { WebhookEventFlag } from '@/lib/webhooks/events/types';
import { EVENT_TYPE_OF_FLAG } from '@/lib/webhooks/events/types';
import { hasSubscribers, publishEvent } from '@/lib/webhooks/delivery/store';
import { deliveryWorker } from '@/lib/webhooks/delivery/process-worker';
import { markAnnounced, unannouncedOffers, type OfferRow } from './offers-store';

/**
 * The scheduling events (issue 48), published by the product itself through the delivery engine:
 * the same fan-out, signing, retries and log as any event. Each has an idEvento of its own
 * (`{type}:{offer id or token}`), so publishing it again (another instance, a restart) answers the
 * first event and sends nothing twice.
 */
export const SCHEDULING_PRODUCER = 'sistema:agendamento';

async function publish(
  db: Knex,
  flag: WebhookEventFlag,
  usuarioId: string,
  subject: string,
  dados: Record<string, unknown>,
): Promise<void> {
  const published = await publishEvent(
    db,
    SCHEDULING_PRODUCER,
    {
      tipo: flag,
      usuarioId,
      idEvento: `${EVENT_TYPE_OF_FLAG[flag]}:${subject}`,
      dados,
    },
    Date.now(),
  );
  if (published.waiting.length > 0) deliveryWorker().wake(published.waiting);
}

/** The events of an offer's current state: out, expired (and its slot released), declined or removed (released). */
async function announceOffer(db: Knex, offer: OfferRow, nrSeqProcInterno: number, nrMinDuracao: number): Promise<void> {
  const slot = { nrSeqAgenda: offer.nrSeqAgenda, nrSeqProcInterno };
  const ids = { entradaId: offer.entryId, ofertaId: offer.id };
  const prazo = offer.deadline === null ? null : new Date(offer.deadline).toISOString();
  const released = (motivo: string) =>
    publish(db, 'eventoAgendamentoLiberado', offer.usuarioId, offer.id, { ...slot, tokenReserva: offer.token ?? '', motivo });
  switch (offer.status) {
    case 'ofertada':
      await publish(db, 'eventoAgendamentoOfertado', offer.usuarioId, offer.id, {
        ...ids,
        ...slot,
        cdAgenda: offer.cdAgenda,
        dtAgenda: offer.dtAgenda,
        nrMinDuracao,
        tokenReserva: offer.token ?? '',
        prazo,
      });
      break;
    case 'expirada':
      await publish(db, 'eventoAgendamentoOfertaExpirada', offer.usuarioId, offer.id, { ...ids, ...slot, prazo });
      await released('oferta-expirada');
      break;
    case 'recusada':
      await released('recusada');
      break;
    case 'removida':
      await released('entrada-removida');
      break;
    default:
      break;
  }
  await markAnnounced(db, offer.id, offer.status);
}

/** Publishes the events not yet published (announced false), e.g. after an instance stopped between a change and its event. */
export async function announcePending(
  db: Knex,
  entryOf: (offer: OfferRow) => Promise<{ nrSeqProcInterno: number; nrMinDuracao: number } | undefined>,
): Promise<void> {
  for (const offer of await unannouncedOffers(db, 100)) {
    const entry = await entryOf(offer);
    if (!entry) continue;
    try {
      await announceOffer(db, offer, entry.nrSeqProcInterno, entry.nrMinDuracao);
    } catch (error) {
      // Left unannounced: the next pass publishes it (the same idEvento, so never twice).
      log.warn('waitlist.announce_failed', { offerId: offer.id, ...redactError(error) });
    }
  }
}

/**
 * `agendamento.reservado` and `agendamento.liberado` for a reservation or release an API client made
 * itself (POST …/reserva-slot), to its own tenant. Staff act for the hospital, for no tenant: their
 * reservations and releases are not announced (an offer's are, by the waitlist).
 */
export async function announceReservation(
  db: Knex,
  principal: Principal,
  request: SlotReservationRequest,
  answer: SlotReservationResponse,
): Promise<void> {
  if (principal.kind !== 'api-client') return;
  const usuarioId = principal.usuarioId.toLowerCase();
  const flag = request.ieOpcao === 'R' ? 'eventoAgendamentoReservado' : 'eventoAgendamentoLiberado';
  // The reservation's hot path: no event row is written for a tenant that receives none.
  if (!(await hasSubscribers(db, usuarioId, EVENT_TYPE_OF_FLAG[flag]).catch(() => false))) return;
  const slot = { nrSeqAgenda: request.nrSeqAgenda, nrSeqProcInterno: request.nrSeqProcInterno };
  try {
    if (request.ieOpcao === 'R' && answer.CODIGO_P === '0') {
      await publish(db, 'eventoAgendamentoReservado', usuarioId, answer.TOKEN_RESERVA_P, { ...slot, tokenReserva: answer.TOKEN_RESERVA_P });
    }
    if (request.ieOpcao === 'CR' && answer.CODIGO_P === '1' && request.tokenReservaCanc) {
      await publish(db, 'eventoAgendamentoLiberado', usuarioId, request.tokenReservaCanc, {
        ...slot,
        tokenReserva: request.tokenReservaCanc,
        motivo: 'cancelada',
      });
    }
  } catch (error) {
    // The reservation stands: the caller gets its answer; operators see the event was not published.
    log.error('waitlist.reservation_event_failed', { option: request.ieOpcao, ...redactError(error) });
  }
}
