import 'server-only';
import type { Knex } from 'knex';
import { getDb } from '@/lib/db/handle';
import { log, redactError } from '@/lib/log';
import { schedulingBackend } from '@/lib/scheduling/backends';
import type { FreeSlot } from '@/lib/scheduling/contract';
import { announcePending } from './announce';
import { CALL } from './backend-calls';
import { findEntry, moveEntryState, waitingEntries, type EntryRow } from './entries-store';
import { matches, nextInLine } from './line';
import { offerSlot } from './offer-slot';
import { heldSlots, moveOfferState, offersToSettle } from './offers-store';
import { releaseOffer, type ReleaseAs } from './release-offer';
import { turnsOf } from './turns-store';

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

/** Offers whose deadline passed, and claims whose instance stopped mid-call. */
async function settle(db: Knex, stop: AbortSignal | undefined): Promise<void> {
  for (const offer of await offersToSettle(db, Date.now(), 100)) {
    if (stop?.aborted) return;
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
async function offerFreeSlots(db: Knex, stop: AbortSignal | undefined): Promise<number> {
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
      // Stopping (a deploy): the offer just made is complete; no other is started.
      if (stop?.aborted) return offered;
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

/**
 * One pass of the waitlist (see the module's comment); errors are logged, the next pass tries
 * again. Once `stop` is aborted it starts no other settling or offer, and publishes the events of
 * what it did.
 */
export async function waitlistPass(stop?: AbortSignal): Promise<void> {
  const db = await getDb();
  try {
    await settle(db, stop);
    await offerFreeSlots(db, stop);
  } catch (error) {
    log.error('waitlist.pass_failed', { ...redactError(error) });
  }
  try {
    await announcePending(db, (offer) => findEntry(db, offer.entryId));
  } catch (error) {
    log.error('waitlist.announce_failed', { ...redactError(error) });
  }
}
