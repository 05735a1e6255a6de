import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { recordAudit } from '@/lib/audit/store';
import { maskIdentifier, maskToken } from '@/lib/audit/masking';
import type { StaffPrincipal } from '@/lib/auth/principal';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { isUniqueViolation } from '@/lib/db/dialect';
import { log, redactError } from '@/lib/log';
import { RequestFieldRejected, type ProcedureAnswer, type ProcedureCallContext } from '@/lib/scheduling/backend';
import { schedulingBackend } from '@/lib/scheduling/backends';
import { maxReservationCallMs } from '@/lib/scheduling/call-duration';
import type { FreeSlot, SlotReservationRequest } from '@/lib/scheduling/contract';
import type { WaitlistOfferState } from '@/lib/scheduling/waitlist-contract';
import { announcePending } from './announce';
import { matches, nextInLine } from './line';
import {
  findEntry,
  heldSlots,
  insertOffer,
  moveEntryState,
  moveOfferState,
  offersToSettle,
  recordTurn,
  turnsOf,
  waitingEntries,
  type EntryRow,
  type OfferRow,
} from './store';

/**
 * The waitlist's offers (issue 48). A pass: settles the offers due (deadline passed: released with
 * CR; a reservation or release whose instance stopped mid-call), then offers each free slot that
 * matches a waiting entry to the entry whose turn it is (line.ts), then publishes the events not yet
 * published. Any instance runs passes; each change is a guarded update, so an entry or offer acted
 * on by one instance is skipped by the others:
 * 1. claim, in one transaction: the entry `aguardando` → `reservando` and an offer row holding the
 *    slot (`active_slot`, unique: one offer per slot at a time), with a lease;
 * 2. reserve (R) through the configured back-end, outside any transaction (the Oracle call);
 * 3. record the answer: CODIGO_P 0, the offer `ofertada` with its token and deadline; anything
 *    else, the offer `falhou` and the entry back in line. A back-end that cannot answer leaves the
 *    entry waiting, with nothing reserved for it.
 * A process killed between 1 and 3 leaves a claim whose lease runs out: the next pass puts the
 * entry back in line. Whether the back-end reserved is then unknown (no token came back): the
 * slot stays held by that reservation until it lapses, and is offered again only once free.
 */
export const WAITLIST_ACTOR: StaffPrincipal = {
  kind: 'staff',
  userId: 'sistema:lista-espera',
  email: 'sistema:lista-espera',
  name: 'Lista de espera',
  roles: [],
};

/** This process, as the owner of its leases. */
const INSTANCE = randomUUID();
/** A reservation or release claimed longer ago than the longest back-end call (plus margin) was abandoned. */
const leaseMs = () => maxReservationCallMs(env()) + 5_000;
/** After the back-end could not answer for an entry, it waits this long before its next try. */
const RETRY_AFTER_FAILURE_MS = 10_000;

const CALL: ProcedureCallContext = { clientId: 'lista-espera', actsForHospital: true };

function requestFor(entry: EntryRow, slot: number, option: 'R' | 'CR', token?: string): SlotReservationRequest {
  return {
    nrSeqAgenda: slot,
    nrSeqProcInterno: entry.nrSeqProcInterno,
    ...(entry.ieLado ? { ieLado: entry.ieLado } : {}),
    nrMinDuracao: entry.nrMinDuracao,
    ieOpcao: option,
    ...(token ? { tokenReservaCanc: token } : {}),
    cdPessoaFisica: entry.cdPessoaFisica,
    cdConvenio: entry.cdConvenio,
    cdCategoria: entry.cdCategoria,
    cdPlano: entry.cdPlano,
    cdUsuarioConvenio: entry.cdUsuarioConvenio,
    nmUsuario: entry.nmUsuario,
  };
}

/** The audit trail's view of an offer: patient identifiers and the token masked, as a reservation's are. */
export function offerAuditView(entry: EntryRow, offer: Pick<OfferRow, 'id' | 'nrSeqAgenda' | 'token' | 'deadline'>) {
  return {
    entradaId: entry.id,
    ofertaId: offer.id,
    usuarioId: entry.usuarioId,
    nrSeqAgenda: offer.nrSeqAgenda,
    nrSeqProcInterno: entry.nrSeqProcInterno,
    cdPessoaFisica: maskIdentifier(entry.cdPessoaFisica),
    cdUsuarioConvenio: maskIdentifier(entry.cdUsuarioConvenio, 4),
    tokenReserva: maskToken(offer.token),
    prazo: offer.deadline === null ? null : new Date(offer.deadline).toISOString(),
  };
}

async function call(request: SlotReservationRequest, owner?: string): Promise<ProcedureAnswer | RequestFieldRejected> {
  try {
    return await schedulingBackend().reserveOrRelease(request, { ...CALL, ...(owner ? { owner } : {}) });
  } catch (error) {
    if (error instanceof RequestFieldRejected) return error;
    log.warn('waitlist.backend_failed', { option: request.ieOpcao, ...redactError(error) });
    return { IE_RESERVADO_P: 'N', TOKEN_RESERVA_P: '', CODIGO_P: '9', MENSAGEM_P: '', failure: { kind: 'failed' } };
  }
}

type OfferResult = 'offered' | 'taken' | 'refused' | 'backend-down';

/** Reserves `slot` for `entry` and puts the offer out; see the module's comment for the steps. */
async function offerSlot(db: Knex, entry: EntryRow, slot: FreeSlot): Promise<OfferResult> {
  const now = Date.now();
  const offer: OfferRow = {
    id: randomUUID(),
    entryId: entry.id,
    usuarioId: entry.usuarioId,
    nrSeqAgenda: slot.NR_SEQ_AGENDA,
    cdAgenda: slot.CD_AGENDA,
    dtAgenda: slot.DT_AGENDA,
    token: null,
    status: 'reservando',
    releaseAs: null,
    leaseOwner: INSTANCE,
    leaseUntil: now + leaseMs(),
    deadline: null,
    announced: true,
    createdAt: now,
    endedAt: null,
  };
  try {
    const claimed = await db.transaction(async (trx) => {
      if (!(await moveEntryState(trx, entry.id, ['aguardando'], 'reservando', now))) return false;
      await insertOffer(trx, offer);
      return true;
    });
    if (!claimed) return 'taken';
  } catch (error) {
    // Another instance's offer holds the slot (active_slot): it is theirs to offer.
    if (isUniqueViolation(error)) return 'taken';
    throw error;
  }

  const answer = await call(requestFor(entry, slot.NR_SEQ_AGENDA, 'R'), entry.owner);
  const at = Date.now();
  if (!(answer instanceof RequestFieldRejected) && answer.CODIGO_P === '0') {
    const deadline = at + Math.round(env().WAITLIST_OFFER_MINUTES * 60_000);
    const recorded = await db.transaction(async (trx) => {
      const moved = await moveOfferState(trx, offer.id, ['reservando'], 'ofertada', {
        token: answer.TOKEN_RESERVA_P,
        deadline,
        leaseOwner: null,
        leaseUntil: null,
        announce: true,
      });
      if (!moved) return false;
      await moveEntryState(trx, entry.id, ['reservando'], 'ofertada', at);
      await recordAudit(trx, {
        principal: WAITLIST_ACTOR,
        action: 'waitlist.offer',
        target: `slot:${slot.NR_SEQ_AGENDA}`,
        outcome: 'CODIGO_P=0',
        after: offerAuditView(entry, { ...offer, token: answer.TOKEN_RESERVA_P, deadline }),
      });
      return true;
    });
    if (!recorded) {
      // Our lease ran out and a pass settled the claim meanwhile: the hold is no offer's, so it goes.
      await call(requestFor(entry, slot.NR_SEQ_AGENDA, 'CR', answer.TOKEN_RESERVA_P));
      return 'taken';
    }
    await recordTurn(db, entry.nrSeqProcInterno, entry.usuarioId, at).catch(() => undefined);
    log.info('waitlist.offered', { offerId: offer.id, entryId: entry.id, slot: slot.NR_SEQ_AGENDA });
    return 'offered';
  }

  const invalid = answer instanceof RequestFieldRejected;
  const backendDown = !invalid && answer.CODIGO_P === '9';
  await db.transaction(async (trx) => {
    await moveOfferState(trx, offer.id, ['reservando'], 'falhou', { ended: at, leaseOwner: null, leaseUntil: null });
    // CODIGO_P 5 (the patient holds this exam already) or a failure: the entry waits a little before its next try.
    const retryAt = backendDown || (!invalid && answer.CODIGO_P === '5') ? at + RETRY_AFTER_FAILURE_MS : null;
    await moveEntryState(trx, entry.id, ['reservando'], invalid ? 'invalida' : 'aguardando', at, { retryAt });
    await recordAudit(trx, {
      principal: WAITLIST_ACTOR,
      action: 'waitlist.offer',
      target: `slot:${slot.NR_SEQ_AGENDA}`,
      outcome: invalid ? `invalid ${answer.field}` : answer.failure ? `CODIGO_P=9 ${answer.failure.kind}` : `CODIGO_P=${answer.CODIGO_P}`,
      after: offerAuditView(entry, offer),
    });
  });
  log.info('waitlist.offer_refused', { entryId: entry.id, slot: slot.NR_SEQ_AGENDA, codigo: invalid ? 'field' : answer.CODIGO_P });
  return backendDown ? 'backend-down' : 'refused';
}

const RELEASE_ACTIONS = { recusada: 'waitlist.decline', expirada: 'waitlist.expire', removida: 'waitlist.remove' } as const;
export type ReleaseAs = keyof typeof RELEASE_ACTIONS;

/**
 * Releases an offer's slot with CR and ends the offer as `as`. The offer goes `liberando` first
 * (with a lease), so a pass finishes the release if this process stops or the back-end cannot
 * answer now. CODIGO_P 1 (released), 3 or 4 (nothing to release any more: the hold lapsed or was
 * released by its token) end it. Answers whether it ended.
 */
export async function releaseOffer(db: Knex, offer: OfferRow, as: ReleaseAs, from: readonly WaitlistOfferState[]): Promise<boolean> {
  const entry = await findEntry(db, offer.entryId);
  if (!entry) return false;
  const now = Date.now();
  const claimed = await db.transaction(async (trx) => {
    const moved = await moveOfferState(trx, offer.id, from, 'liberando', {
      releaseAs: as,
      leaseOwner: INSTANCE,
      leaseUntil: now + leaseMs(),
    });
    if (moved && as !== 'removida') await moveEntryState(trx, entry.id, ['ofertada', 'reservando'], as, now);
    return moved;
  });
  if (!claimed) return false;
  const answer = offer.token === null ? undefined : await call(requestFor(entry, offer.nrSeqAgenda, 'CR', offer.token));
  const gone = answer === undefined || (!(answer instanceof RequestFieldRejected) && ['1', '3', '4'].includes(answer.CODIGO_P));
  if (!gone) return false; // left `liberando`: once its lease runs out, a pass tries again
  const at = Date.now();
  await db.transaction(async (trx) => {
    await moveOfferState(trx, offer.id, ['liberando'], as, { ended: at, leaseOwner: null, leaseUntil: null, announce: true });
    await recordAudit(trx, {
      principal: WAITLIST_ACTOR,
      action: RELEASE_ACTIONS[as],
      target: `slot:${offer.nrSeqAgenda}`,
      outcome: answer ? `CODIGO_P=${answer.CODIGO_P}` : 'nothing-held',
      after: offerAuditView(entry, offer),
    });
  });
  log.info('waitlist.offer_released', { offerId: offer.id, as });
  return true;
}

/** Offers whose deadline passed, and claims whose instance stopped mid-call. */
async function settle(db: Knex): Promise<void> {
  for (const offer of await offersToSettle(db, Date.now(), 100)) {
    if (offer.status === 'ofertada') await releaseOffer(db, offer, 'expirada', ['ofertada']);
    else if (offer.status === 'liberando') await releaseOffer(db, offer, offer.releaseAs as ReleaseAs, ['liberando']);
    else if (offer.status === 'reservando') {
      const at = Date.now();
      await db.transaction(async (trx) => {
        if (!(await moveOfferState(trx, offer.id, ['reservando'], 'falhou', { ended: at, leaseOwner: null, leaseUntil: null }))) return;
        await moveEntryState(trx, offer.entryId, ['reservando'], 'aguardando', at);
      });
      log.warn('waitlist.claim_abandoned', { offerId: offer.id, entryId: offer.entryId });
    }
  }
}

/** The free slots that may match an exam's waiting entries: one listing per agenda they name, or one for any. */
async function freeSlotsFor(line: readonly EntryRow[], now: number): Promise<FreeSlot[]> {
  const de = new Date(Math.max(now + 1, Math.min(...line.map((entry) => entry.windowFrom)))).toISOString();
  const ate = new Date(Math.max(...line.map((entry) => entry.windowTo))).toISOString();
  const backend = schedulingBackend();
  if (line.some((entry) => entry.agendas === null)) return backend.listFreeSlots({ de, ate, limite: 200 }, CALL);
  const agendas = [...new Set(line.flatMap((entry) => entry.agendas ?? []))].slice(0, 20);
  const lists = await Promise.all(agendas.map((cdAgenda) => backend.listFreeSlots({ de, ate, cdAgenda, limite: 50 }, CALL)));
  return lists.flat().sort((a, b) => Date.parse(a.DT_AGENDA) - Date.parse(b.DT_AGENDA));
}

/** Offers free slots to waiting entries, exam by exam (the exam whose first entry has waited longest first). */
async function offerFreeSlots(db: Knex): Promise<number> {
  const now = Date.now();
  const byExam = new Map<number, EntryRow[]>();
  for (const entry of await waitingEntries(db, now, 1000)) {
    byExam.set(entry.nrSeqProcInterno, [...(byExam.get(entry.nrSeqProcInterno) ?? []), entry]);
  }
  let offered = 0;
  for (const [exam, line] of byExam) {
    let slots: FreeSlot[];
    try {
      slots = await freeSlotsFor(line, now);
    } catch (error) {
      // The back-end cannot list: every entry stays waiting, untouched.
      log.warn('waitlist.slots_unavailable', { ...redactError(error) });
      return offered;
    }
    const held = await heldSlots(db);
    const turns = await turnsOf(db, exam);
    let remaining = line;
    for (const slot of slots) {
      if (held.has(slot.NR_SEQ_AGENDA)) continue;
      const entry = nextInLine(
        remaining.filter((candidate) => matches(candidate, slot, Date.now())),
        turns,
      );
      if (!entry) continue;
      remaining = remaining.filter((candidate) => candidate.id !== entry.id);
      const result = await offerSlot(db, entry, slot);
      if (result === 'offered') {
        offered += 1;
        turns.set(entry.usuarioId, Date.now());
      }
      if (result === 'backend-down') return offered;
      if (remaining.length === 0) break;
    }
  }
  return offered;
}

/** One pass of the waitlist (see the module's comment); errors are logged, the next pass tries again. */
export async function waitlistPass(): Promise<void> {
  const db = await getDb();
  try {
    await settle(db);
    await offerFreeSlots(db);
  } catch (error) {
    log.error('waitlist.pass_failed', { ...redactError(error) });
  }
  try {
    await announcePending(db, (offer) => findEntry(db, offer.entryId));
  } catch (error) {
    log.error('waitlist.announce_failed', { ...redactError(error) });
  }
}
