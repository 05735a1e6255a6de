import 'server-only';
import { z } from 'zod';
import { uuidPathParam } from '@/lib/validation/path-params';
import { queryParameters } from '@/lib/openapi/fragments';
import {
  MAX_WAITLIST_WINDOW_DAYS,
  waitlistEntryCreateSchema,
  waitlistEntrySchema,
  waitlistLineSchema,
  waitlistMoveSchema,
  waitlistQuerySchema,
} from '@/lib/scheduling/waitlist-contract';
import { acceptOffer, declineOffer } from '@/lib/waitlist/offer-answers';
import { addEntry, listWaitlist, moveEntry, removeEntry, waitlistLines } from '@/lib/waitlist/service';
import { getEntry } from '@/lib/waitlist/views';
import { apiPath } from '@/lib/http/paths';
import { routes } from '@/lib/api/routes';
import { answer } from '@/lib/http/answers';
import { operation } from '@/lib/http/operation';

/** The scheduling waitlist (issue 48): entries, the offers made to them, and their answers. */
const entryParams = z.strictObject({ id: uuidPathParam('The waitlist entry’s id.') });
const notYours = answer.problem('No waitlist entry of yours has this id.');
const noOffer = answer.problem(
  'The entry has no offer out (`waitlist-no-offer`: never offered, already answered, or released), or its deadline has passed (`waitlist-offer-expired`).',
);

function doc(summary: string, description: string) {
  return { summary, tags: ['Scheduling waitlist'], description };
}

const OFFER_RULE =
  'When a slot matching a waiting entry is free (released through the product, a hold that lapsed, or a slot the back-end lists as free), the product reserves it (ieOpcao R, the same back-end procedure) for the entry whose turn it is and publishes `agendamento.ofertado` with the token and the deadline (`prazo`, WAITLIST_OFFER_MINUTES after the offer). Turns: among the tenants waiting for the exam, the one least recently offered a slot of it goes first, then its first entry in line. Accept before the deadline, or decline; a declined or expired offer is released (CR) and the slot goes to the next entry in line, and the entry leaves the line.';

export const waitlistOperations = {
  addWaitlistEntry: operation(
    {
      method: 'POST',
      path: '/api/v1/agendamentos/lista-espera',
      body: waitlistEntryCreateSchema,
      capability: 'scheduling',
      responses: {
        201: answer.json(waitlistEntrySchema, 'Added, last in its exam’s line; Location names it.', {
          headers: { Location: { description: 'The new entry’s path.', schema: { type: 'string' } } },
        }),
        403: answer.problem('An API client named another tenant’s usuarioId.'),
        429: answer.problem(
          'The tenant already has the most entries in line allowed (WAITLIST_MAX_ENTRIES_PER_TENANT, `limite`); nothing was added.',
        ),
      },
      doc: doc(
        'Put a patient on the waitlist for an exam',
        `The patient and plan fields a reservation needs, the exam (nrSeqProcInterno, ieLado, nrMinDuracao), the agendas accepted (cdAgendas; absent: any) and the window of starts accepted (de to ate, at most ${MAX_WAITLIST_WINDOW_DAYS} days). An API client adds to its own tenant; staff name the tenant (usuarioId). ${OFFER_RULE}`,
      ),
    },
    async ({ principal, body }) => {
      const entry = await addEntry(principal, await body());
      return { status: 201, body: entry, headers: { Location: apiPath(routes.getWaitlistEntry, { id: entry.id }) } };
    },
  ),
  listWaitlistEntries: operation(
    {
      method: 'GET',
      path: '/api/v1/agendamentos/lista-espera',
      capability: 'scheduling',
      query: waitlistQuerySchema,
      responses: { 200: answer.json(z.array(waitlistEntrySchema), 'Entries in line order, each with its latest offer.') },
      doc: {
        ...doc(
          'Your waitlist entries',
          'An API client sees its own tenant’s entries only; staff see every tenant’s. Patient identifiers come masked.',
        ),
        parameters: queryParameters(waitlistQuerySchema, {
          nrSeqProcInterno: 'Only this exam.',
          situacao: 'Only entries in this state.',
          limite: 'At most this many entries.',
        }),
      },
    },
    async ({ principal, query }) => ({ status: 200, body: await listWaitlist(principal, query) }),
  ),
  listWaitlistLines: operation(
    {
      method: 'GET',
      path: '/api/v1/agendamentos/filas-espera',
      capability: 'scheduling',
      responses: {
        200: answer.json(z.array(waitlistLineSchema), 'Each exam with entries in line: its waiting entries in order and its offers out.'),
      },
      doc: doc(
        'Each exam’s line and offers out',
        'What the console’s waitlist shows: per exam, the waiting entries in line order and the entries with an offer out (and its deadline).',
      ),
    },
    async ({ principal }) => ({ status: 200, body: await waitlistLines(principal) }),
  ),
  getWaitlistEntry: operation(
    {
      method: 'GET',
      path: '/api/v1/agendamentos/lista-espera/{id}',
      params: entryParams,
      capability: 'scheduling',
      responses: { 200: answer.json(waitlistEntrySchema, 'The entry, with its latest offer.'), 404: notYours },
      doc: doc('A waitlist entry', 'Another tenant’s entry answers 404, like an unknown id.'),
    },
    async ({ principal, params }) => ({ status: 200, body: await getEntry(principal, params.id) }),
  ),
  removeWaitlistEntry: operation(
    {
      method: 'DELETE',
      path: '/api/v1/agendamentos/lista-espera/{id}',
      params: entryParams,
      capability: 'scheduling',
      responses: {
        204: answer.empty('Removed from the line (an offer out for it released first).'),
        404: notYours,
        409: answer.problem('A slot is being reserved for the entry this moment; retry after Retry-After seconds.'),
      },
      doc: doc('Take a patient off the waitlist', 'An offer out for the entry is released (CR) and its slot goes to the next in line.'),
    },
    async ({ principal, params }) => {
      await removeEntry(principal, params.id);
      return { status: 204 };
    },
  ),
  acceptWaitlistOffer: operation(
    {
      method: 'POST',
      path: '/api/v1/agendamentos/lista-espera/{id}/aceite',
      params: entryParams,
      capability: 'scheduling',
      responses: {
        200: answer.json(waitlistEntrySchema, 'Accepted: the hold (oferta.tokenReserva) is yours.'),
        404: notYours,
        409: noOffer,
      },
      doc: doc(
        'Accept the offer out for an entry',
        'Once the patient confirmed in your own flow, before the offer’s deadline. The reservation stays yours (release it with ieOpcao CR and its token, like any other); the entry leaves the line.',
      ),
    },
    async ({ principal, params }) => ({ status: 200, body: await acceptOffer(principal, params.id) }),
  ),
  declineWaitlistOffer: operation(
    {
      method: 'POST',
      path: '/api/v1/agendamentos/lista-espera/{id}/recusa',
      params: entryParams,
      capability: 'scheduling',
      responses: {
        200: answer.json(waitlistEntrySchema, 'Declined: the slot is released and offered to the next in line.'),
        404: notYours,
        409: noOffer,
      },
      doc: doc(
        'Decline the offer out for an entry',
        'The product releases the slot (CR) and offers it to the next entry in line; the entry leaves the line.',
      ),
    },
    async ({ principal, params }) => ({ status: 200, body: await declineOffer(principal, params.id) }),
  ),
  moveWaitlistEntry: operation(
    {
      method: 'POST',
      path: '/api/v1/agendamentos/lista-espera/{id}/posicao',
      params: entryParams,
      body: waitlistMoveSchema,
      capability: 'scheduling',
      responses: {
        200: answer.json(waitlistEntrySchema, 'Moved.'),
        403: answer.problem('Only schedulers (staff) move entries.'),
        404: notYours,
        409: answer.problem('The entry is not waiting in line.'),
      },
      doc: doc(
        'Move a waiting entry in its exam’s line (schedulers)',
        'To place `posicao` (1 first) of the exam’s line across tenants, with the reason the audit trail keeps. Turns between tenants still apply.',
      ),
    },
    async ({ principal, params, body }) => ({ status: 200, body: await moveEntry(principal, params.id, await body()) }),
  ),
};
