import 'server-only';
import { recordAudit } from '@/lib/audit/store';
import { maskToken } from '@/lib/audit/masking';
import type { Principal } from '@/lib/auth/principal';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import type { WaitlistEntry } from '@/lib/scheduling/waitlist-contract';
import { moveEntryState, type EntryRow } from './entries-store';
import { findOffer, moveOfferState, type OfferRow } from './offers-store';
import { releaseOffer } from './release-offer';
import { currentOffer, getEntry, visibleEntry } from './views';
import { wakeWaitlist } from './worker';

/** The partner's answers to an offer out (issue 48): accept (the hold is theirs) or decline (the next in line gets the slot). */
/** The entry's offer out, or 409 naming why there is none to answer. */
async function offerOut(entry: EntryRow): Promise<OfferRow> {
  const offer = await currentOffer(entry);
  if (!offer || offer.status !== 'ofertada' || entry.status !== 'ofertada') {
    throw refuse.conflict(
      'waitlist-no-offer',
      'This entry has no offer out: it was never offered a slot, or its offer was already answered or expired.',
    );
  }
  return offer;
}

/** The audit entry of a partner's answer to an offer; the token masked, as a reservation's is. */
function answerAudit(
  principal: Principal,
  action: 'waitlist.accept' | 'waitlist.decline',
  outcome: string,
  entry: EntryRow,
  offer: OfferRow,
) {
  return {
    principal,
    action,
    target: `slot:${offer.nrSeqAgenda}`,
    outcome,
    httpStatus: 200,
    after: { entradaId: entry.id, ofertaId: offer.id, nrSeqAgenda: offer.nrSeqAgenda, tokenReserva: maskToken(offer.token) },
  };
}

/**
 * The partner confirmed the offer in its own flow: the hold is theirs, the entry leaves the line.
 * Refused (409) once the deadline has passed, even before a pass has released it.
 */
export async function acceptOffer(principal: Principal, id: string): Promise<WaitlistEntry> {
  const entry = await visibleEntry(principal, id);
  const offer = await offerOut(entry);
  const now = Date.now();
  if (offer.deadline !== null && offer.deadline <= now) {
    throw refuse.conflict('waitlist-offer-expired', 'The offer’s deadline has passed: its slot goes to the next in line.');
  }
  const db = await getDb();
  const accepted = await db.transaction(async (trx) => {
    if (!(await moveOfferState(trx, offer.id, ['ofertada'], 'aceita', { ended: now }))) return false;
    await moveEntryState(trx, entry.id, ['ofertada'], 'aceita', now);
    await recordAudit(trx, answerAudit(principal, 'waitlist.accept', 'accepted', entry, offer));
    return true;
  });
  if (!accepted) throw refuse.conflict('waitlist-no-offer', 'This entry’s offer was answered or expired meanwhile.');
  return getEntry(principal, id);
}

/** The partner declined: the slot is released (CR) and offered to the next in line; the entry leaves the line. */
export async function declineOffer(principal: Principal, id: string): Promise<WaitlistEntry> {
  const entry = await visibleEntry(principal, id);
  const offer = await offerOut(entry);
  const db = await getDb();
  await recordAudit(db, answerAudit(principal, 'waitlist.decline', 'declined', entry, offer));
  const claimed = await findOffer(db, offer.id);
  if (claimed?.status === 'ofertada') await releaseOffer(db, claimed, 'recusada', ['ofertada']);
  wakeWaitlist();
  return getEntry(principal, id);
}
