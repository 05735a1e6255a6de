import 'server-only';
import { randomUUID } from 'node:crypto';
import { recordAudit } from '@/lib/audit/store';
import { actorId, ownerKey, type Principal } from '@/lib/auth/principal';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import { log } from '@/lib/log';
import { FieldRejected } from '@/lib/validation/field-rejected';
import type { SlotReservationRequest, SlotReservationResponse } from '@/lib/scheduling/contract';
import {
  OPEN_ENTRY_STATES,
  type WaitlistEntry,
  type WaitlistEntryCreate,
  type WaitlistLine,
  type WaitlistMove,
  type WaitlistQuery,
} from '@/lib/scheduling/waitlist-contract';
import { announceReservation } from './announce';
import { entryRequestView } from './audit-views';
import { countOpenEntries, insertEntry, linePositions, listEntries, moveEntryState, type EntryRow } from './entries-store';
import { positionAt } from './line';
import { releaseOffer } from './release-offer';
import { currentOffer, getEntry, viewsOf, visibleEntry } from './views';
import { wakeWaitlist } from './worker';

/**
 * The waitlist's entries as callers change them (issue 48): put a patient on the list, take one
 * off, move one in line (staff). Who sees which entry: views.ts; answers to an offer: offer-answers.ts.
 */
export const QUOTA_PROBLEM = 'waitlist-quota';

function tenantOf(principal: Principal, input: WaitlistEntryCreate): string {
  if (principal.kind === 'api-client') {
    const own = principal.usuarioId.toLowerCase();
    if (input.usuarioId !== undefined && input.usuarioId !== own) {
      throw refuse.forbidden('An API client puts patients on its own tenant’s waitlist only.');
    }
    return own;
  }
  if (input.usuarioId === undefined) throw new FieldRejected('usuarioId', 'required', 'usuarioId is required.');
  return input.usuarioId;
}

/**
 * Puts a patient on the list, last in its exam's line. A tenant has at most
 * WAITLIST_MAX_ENTRIES_PER_TENANT entries in line (waiting or offered): past it 429, nothing
 * written. Counted in the transaction that writes: exact on SQLite (one writer); on PostgreSQL and
 * Oracle simultaneous creates of one tenant may pass it by their own number.
 */
export async function addEntry(principal: Principal, input: WaitlistEntryCreate): Promise<WaitlistEntry> {
  const usuarioId = tenantOf(principal, input);
  const now = Date.now();
  const entry: EntryRow = {
    id: randomUUID(),
    usuarioId,
    // Whose the holds made for it are: the partner's own client (it may release them), or staff's.
    owner: ownerKey(principal),
    createdBy: actorId(principal),
    nrSeqProcInterno: input.nrSeqProcInterno,
    ieLado: input.ieLado ?? null,
    nrMinDuracao: input.nrMinDuracao,
    agendas: input.cdAgendas ? [...new Set(input.cdAgendas)] : null,
    windowFrom: Date.parse(input.de),
    windowTo: Date.parse(input.ate),
    cdPessoaFisica: input.cdPessoaFisica,
    cdConvenio: input.cdConvenio,
    cdCategoria: input.cdCategoria,
    cdPlano: input.cdPlano,
    cdUsuarioConvenio: input.cdUsuarioConvenio,
    nmUsuario: input.nmUsuario,
    status: 'aguardando',
    position: now,
    retryAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const limit = env().WAITLIST_MAX_ENTRIES_PER_TENANT;
  const db = await getDb();
  await db.transaction(async (trx) => {
    const open = await countOpenEntries(trx, usuarioId);
    if (open >= limit) {
      log.info('waitlist.quota_exceeded', { limit });
      throw refuse.rateLimited(
        QUOTA_PROBLEM,
        60,
        `This tenant has ${open} waitlist entries in line and may have at most ${limit} (WAITLIST_MAX_ENTRIES_PER_TENANT); nothing was added. Remove one, or wait until one is offered a slot and accepted.`,
        { limite: limit },
      );
    }
    await insertEntry(trx, entry);
    await recordAudit(trx, {
      principal,
      action: 'waitlist.add',
      target: `waitlist:${entry.id}`,
      outcome: 'created',
      httpStatus: 201,
      after: entryRequestView(entry),
    });
  });
  wakeWaitlist();
  return (await viewsOf([entry]))[0]!;
}

export async function listWaitlist(principal: Principal, query: WaitlistQuery): Promise<WaitlistEntry[]> {
  const entries = await listEntries(await getDb(), {
    usuarioId: principal.kind === 'api-client' ? principal.usuarioId.toLowerCase() : undefined,
    nrSeqProcInterno: query.nrSeqProcInterno,
    statuses: query.situacao ? [query.situacao] : undefined,
    limit: query.limite,
  });
  return viewsOf(entries);
}

/**
 * Takes an entry off the list. An offer out for it is released (CR) first, so its slot goes to the
 * next in line; an entry already out of line is left as it is (204 all the same).
 */
export async function removeEntry(principal: Principal, id: string): Promise<void> {
  const entry = await visibleEntry(principal, id);
  const db = await getDb();
  const now = Date.now();
  const removed = await db.transaction(async (trx) => {
    const moved = await moveEntryState(trx, entry.id, ['aguardando', 'ofertada'], 'removida', now);
    if (moved) {
      await recordAudit(trx, {
        principal,
        action: 'waitlist.remove',
        target: `waitlist:${entry.id}`,
        outcome: 'removed',
        httpStatus: 204,
        before: { ...entryRequestView(entry), situacao: entry.status },
      });
    }
    return moved;
  });
  if (!removed) {
    if (entry.status === 'reservando')
      throw refuse.conflict('waitlist-offer-in-progress', 'A slot is being reserved for this entry; try again in a moment.', 5);
    return;
  }
  const offer = await currentOffer(entry);
  if (offer?.status === 'ofertada') await releaseOffer(db, offer, 'removida', ['ofertada']);
  wakeWaitlist();
}

/**
 * Staff move a waiting entry to another place in its exam's line (across tenants), with a reason
 * the audit trail keeps. The turns between tenants still apply: the move orders an exam's line, and
 * within a tenant's turn its entries go in that order.
 */
export async function moveEntry(principal: Principal, id: string, move: WaitlistMove): Promise<WaitlistEntry> {
  if (principal.kind !== 'staff') throw refuse.forbidden('Only schedulers move entries in line.');
  const entry = await visibleEntry(principal, id);
  if (entry.status !== 'aguardando') throw refuse.conflict('waitlist-not-waiting', 'Only an entry waiting in line can be moved.');
  const db = await getDb();
  const line = (await linePositions(db, entry.nrSeqProcInterno)).filter((other) => other.id !== entry.id);
  const before = line.findIndex((other) => other.position > entry.position) + 1 || line.length + 1;
  const position = positionAt(
    line.map((other) => other.position),
    move.posicao,
  );
  await db.transaction(async (trx) => {
    if (!(await moveEntryState(trx, entry.id, ['aguardando'], 'aguardando', Date.now(), { position }))) {
      throw refuse.conflict('waitlist-not-waiting', 'Only an entry waiting in line can be moved.');
    }
    await recordAudit(trx, {
      principal,
      action: 'waitlist.move',
      target: `waitlist:${entry.id}`,
      outcome: 'moved',
      httpStatus: 200,
      before: { posicao: before },
      after: { posicao: Math.min(move.posicao, line.length + 1), motivo: move.motivo, nrSeqProcInterno: entry.nrSeqProcInterno },
    });
  });
  return getEntry(principal, id);
}

/** Each exam's line for the console: its waiting entries in order, and its offers out with their deadlines. */
export async function waitlistLines(principal: Principal): Promise<WaitlistLine[]> {
  const entries = await listEntries(await getDb(), {
    usuarioId: principal.kind === 'api-client' ? principal.usuarioId.toLowerCase() : undefined,
    statuses: OPEN_ENTRY_STATES,
    limit: 5000,
  });
  const views = await viewsOf(entries);
  const exams = [...new Set(views.map((view) => view.nrSeqProcInterno))].sort((a, b) => a - b);
  return exams.map((exam) => ({
    nrSeqProcInterno: exam,
    aguardando: views.filter((view) => view.nrSeqProcInterno === exam && view.situacao === 'aguardando'),
    ofertas: views.filter((view) => view.nrSeqProcInterno === exam && view.situacao !== 'aguardando'),
  }));
}

/**
 * After a reservation or release through the product (POST …/reserva-slot): its event to the
 * caller's tenant, and a pass at once when a slot was freed, so the first entry in line is offered
 * it within seconds.
 */
export async function afterReservation(
  principal: Principal,
  request: SlotReservationRequest,
  answer: SlotReservationResponse,
): Promise<void> {
  await announceReservation(await getDb(), principal, request, answer);
  if (request.ieOpcao === 'CR' && answer.CODIGO_P === '1') wakeWaitlist();
}
