import { z } from 'zod';
import { EVENT_TYPE_OF_FLAG, type SchedulingEventFlag } from './types';

/**
 * The scheduling events' `data` (issue 48): what the product tells a tenant about its reservations
 * and its waitlist. Published by the product alone (lib/waitlist/events.ts), never by a producer.
 * No patient identifier travels: the partner knows its entry by `entradaId` and its reservation by
 * the token. No server imports (messages.ts builds the catalogue from these).
 */
const ownData = {
  idEvento: z.string().meta({ description: '`{type}:{id}`: one per reservation, release or offer; deduplicate by it.' }),
  usuarioId: z.string().meta({ format: 'uuid', description: 'The tenant the reservation or waitlist entry belongs to.' }),
};
const slot = {
  nrSeqAgenda: z.number().int().meta({ description: 'The slot (NR_SEQ_AGENDA).' }),
  nrSeqProcInterno: z.number().int().meta({ description: 'The exam.' }),
};
const token = z.string().meta({ description: 'TOKEN_RESERVA_P: the reservation’s token, to release it with ieOpcao CR.' });
const offer = {
  entradaId: z.guid().meta({ description: 'The waitlist entry the offer is for.' }),
  ofertaId: z.guid().meta({ description: 'The offer.' }),
};
const deadline = z.iso.datetime().meta({ description: 'Until when the offer may be accepted (WAITLIST_OFFER_MINUTES after it was made).' });

export const RELEASE_REASONS = ['cancelada', 'recusada', 'oferta-expirada', 'entrada-removida'] as const;

export const SCHEDULING_DATA_SCHEMAS: Record<SchedulingEventFlag, z.ZodObject> = {
  eventoAgendamentoReservado: z.object({
    ...ownData,
    ...slot,
    tokenReserva: token,
  }),
  eventoAgendamentoLiberado: z.object({
    ...ownData,
    ...slot,
    tokenReserva: token,
    motivo: z.enum(RELEASE_REASONS).meta({
      description:
        '`cancelada`: released through the API or the console; `recusada`: an offer declined; `oferta-expirada`: an offer’s deadline passed; `entrada-removida`: its waitlist entry was removed while offered.',
    }),
  }),
  eventoAgendamentoOfertado: z.object({
    ...ownData,
    ...offer,
    ...slot,
    cdAgenda: z.number().int().meta({ description: 'The agenda of the slot.' }),
    dtAgenda: z.string().meta({ description: 'When the exam starts (the back-end’s DT_AGENDA).' }),
    nrMinDuracao: z.number().int().meta({ description: 'Minutes reserved.' }),
    tokenReserva: token,
    prazo: deadline,
  }),
  eventoAgendamentoOfertaExpirada: z.object({ ...ownData, ...offer, ...slot, prazo: deadline }),
};

/** Example `dados` for the catalogue, by event type. */
export const SCHEDULING_EXAMPLES: Record<string, Record<string, unknown>> = {
  [EVENT_TYPE_OF_FLAG.eventoAgendamentoReservado]: {
    nrSeqAgenda: 1001,
    nrSeqProcInterno: 501,
    tokenReserva: '9F2C4D6E8A0B1C3D5E7F9A1B3C5D7E9F',
  },
  [EVENT_TYPE_OF_FLAG.eventoAgendamentoLiberado]: {
    nrSeqAgenda: 1001,
    nrSeqProcInterno: 501,
    tokenReserva: '9F2C4D6E8A0B1C3D5E7F9A1B3C5D7E9F',
    motivo: 'cancelada',
  },
  [EVENT_TYPE_OF_FLAG.eventoAgendamentoOfertado]: {
    entradaId: '6f1c2b1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d',
    ofertaId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
    nrSeqAgenda: 1001,
    cdAgenda: 12,
    dtAgenda: '2026-05-06T09:00:00-03:00',
    nrSeqProcInterno: 501,
    nrMinDuracao: 30,
    tokenReserva: '9F2C4D6E8A0B1C3D5E7F9A1B3C5D7E9F',
    prazo: '2026-05-04T14:00:00.000Z',
  },
  [EVENT_TYPE_OF_FLAG.eventoAgendamentoOfertaExpirada]: {
    entradaId: '6f1c2b1e-3d4a-4f5b-8c6d-7e8f9a0b1c2d',
    ofertaId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
    nrSeqAgenda: 1001,
    nrSeqProcInterno: 501,
    prazo: '2026-05-04T14:00:00.000Z',
  },
};
