import 'server-only';
import type { Knex } from 'knex';
import { recordAudit } from '@/lib/audit/store';
import { log } from '@/lib/log';
import { RequestFieldRejected } from '@/lib/scheduling/backend';
import type { WaitlistOfferState } from '@/lib/scheduling/waitlist-contract';
import { offerAuditView, WAITLIST_ACTOR } from './audit-views';
import { call, INSTANCE, leaseMs, requestFor } from './backend-calls';
import { findEntry, moveEntryState } from './entries-store';
import { moveOfferState, type OfferRow } from './offers-store';

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
