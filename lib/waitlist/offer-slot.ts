import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { recordAudit } from '@/lib/audit/store';
import { env } from '@/lib/config/env';
import { isUniqueViolation } from '@/lib/db/dialect';
import { log } from '@/lib/log';
import { RequestFieldRejected } from '@/lib/scheduling/backend';
import type { FreeSlot } from '@/lib/scheduling/contract';
import { offerAuditView, WAITLIST_ACTOR } from './audit-views';
import { call, INSTANCE, leaseMs, requestFor } from './backend-calls';
import { moveEntryState, type EntryRow } from './entries-store';
import { insertOffer, moveOfferState, type OfferRow } from './offers-store';
import { recordTurn } from './turns-store';

/** After the back-end could not answer for an entry, it waits this long before its next try. */
const RETRY_AFTER_FAILURE_MS = 10_000;

export type OfferResult = 'offered' | 'taken' | 'refused' | 'backend-down';

/** Reserves `slot` for `entry` and puts the offer out, in the three steps of offers.ts's comment. */
export async function offerSlot(db: Knex, entry: EntryRow, slot: FreeSlot): Promise<OfferResult> {
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
