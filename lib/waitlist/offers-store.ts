import 'server-only';
import { toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import { rowReader, toOptionalNumber, type Db } from '@/lib/db/rows';
import type { WaitlistOfferState } from '@/lib/scheduling/waitlist-contract';

/**
 * The waitlist's offers (issue 48, table waitlist_offers): the only module that queries them.
 * Every change of state is one guarded update (`where status = …`), so of two instances acting on
 * the same row only one succeeds. An offer's `active_slot` (unique) lets one offer at a time hold a slot.
 */
export type OfferRow = {
  id: string;
  entryId: string;
  usuarioId: string;
  nrSeqAgenda: number;
  cdAgenda: number;
  dtAgenda: string;
  token: string | null;
  status: WaitlistOfferState;
  releaseAs: WaitlistOfferState | null;
  leaseOwner: string | null;
  leaseUntil: number | null;
  deadline: number | null;
  announced: boolean;
  createdAt: number;
  endedAt: number | null;
};

const offerOf = rowReader<OfferRow>({
  id: String,
  entryId: String,
  usuarioId: String,
  nrSeqAgenda: toNumber,
  cdAgenda: toNumber,
  dtAgenda: String,
  token: (value) => (value ?? null) as string | null,
  status: (value) => String(value) as WaitlistOfferState,
  releaseAs: (value) => (value ?? null) as WaitlistOfferState | null,
  leaseOwner: (value) => (value ?? null) as string | null,
  leaseUntil: toOptionalNumber,
  deadline: toOptionalNumber,
  announced: toBoolean,
  createdAt: toNumber,
  endedAt: toOptionalNumber,
});

export async function insertOffer(db: Db, offer: OfferRow): Promise<void> {
  await db('waitlist_offers').insert({
    id: offer.id,
    entry_id: offer.entryId,
    usuario_id: offer.usuarioId,
    nr_seq_agenda: offer.nrSeqAgenda,
    active_slot: offer.nrSeqAgenda,
    cd_agenda: offer.cdAgenda,
    dt_agenda: offer.dtAgenda,
    token: offer.token,
    status: offer.status,
    release_as: offer.releaseAs,
    lease_owner: offer.leaseOwner,
    lease_until: offer.leaseUntil,
    deadline: offer.deadline,
    announced: offer.announced,
    created_at: offer.createdAt,
    ended_at: offer.endedAt,
  });
}

export async function findOffer(db: Db, id: string): Promise<OfferRow | undefined> {
  const rows = (await db('waitlist_offers').where({ id }).select('*')) as DbRow[];
  return rows[0] ? offerOf(rows[0]) : undefined;
}

/** Each entry's latest offer. */
export async function latestOffers(db: Db, entryIds: readonly string[]): Promise<Map<string, OfferRow>> {
  const latest = new Map<string, OfferRow>();
  for (let i = 0; i < entryIds.length; i += 500) {
    const rows = (await db('waitlist_offers')
      .whereIn('entry_id', entryIds.slice(i, i + 500))
      .select('*')
      .orderBy('created_at')) as DbRow[];
    for (const row of rows) latest.set(String(row.entry_id), offerOf(row));
  }
  return latest;
}

/** The slots an offer holds now (being reserved, out or being released): none may be offered again. */
export async function heldSlots(db: Db): Promise<Set<number>> {
  const rows: DbRow[] = await db('waitlist_offers').whereNotNull('active_slot').select('active_slot');
  return new Set(rows.map((row) => toNumber(row.active_slot)));
}

/**
 * Moves an offer from one state to another; answers whether it was in `from`. An ended offer
 * gives its slot up (active_slot null); `announced` false asks for the new state's event.
 */
export async function moveOfferState(
  db: Db,
  id: string,
  from: readonly WaitlistOfferState[],
  to: WaitlistOfferState,
  changes: {
    token?: string;
    deadline?: number;
    releaseAs?: WaitlistOfferState;
    leaseOwner?: string | null;
    leaseUntil?: number | null;
    ended?: number;
    announce?: boolean;
  } = {},
): Promise<boolean> {
  const update: Record<string, unknown> = { status: to };
  if (changes.token !== undefined) update.token = changes.token;
  if (changes.deadline !== undefined) update.deadline = changes.deadline;
  if (changes.releaseAs !== undefined) update.release_as = changes.releaseAs;
  if (changes.leaseOwner !== undefined) update.lease_owner = changes.leaseOwner;
  if (changes.leaseUntil !== undefined) update.lease_until = changes.leaseUntil;
  if (changes.ended !== undefined) {
    update.ended_at = changes.ended;
    update.active_slot = null;
  }
  if (changes.announce) update.announced = false;
  const updated = await db('waitlist_offers').where({ id }).whereIn('status', from).update(update);
  return updated === 1;
}

/** Offers out whose deadline has passed, and releases or reservations whose lease ran out (their instance stopped). */
export async function offersToSettle(db: Db, now: number, limit: number): Promise<OfferRow[]> {
  const rows = (await db('waitlist_offers')
    .where((q) => {
      void q
        .where((due) => void due.where({ status: 'ofertada' }).andWhere('deadline', '<=', now))
        .orWhere((stale) => void stale.whereIn('status', ['reservando', 'liberando']).andWhere('lease_until', '<', now));
    })
    .select('*')
    .orderBy('created_at')
    .limit(limit)) as DbRow[];
  return rows.map(offerOf);
}

/** Offers whose current state's event is not yet published. */
export async function unannouncedOffers(db: Db, limit: number): Promise<OfferRow[]> {
  const rows = (await db('waitlist_offers').where({ announced: false }).select('*').orderBy('created_at').limit(limit)) as DbRow[];
  return rows.map(offerOf);
}

export async function markAnnounced(db: Db, id: string, status: WaitlistOfferState): Promise<void> {
  await db('waitlist_offers').where({ id, status }).update({ announced: true });
}
