import 'server-only';
import type { Principal } from '@/lib/auth/principal';
import { getDb } from '@/lib/db/handle';
import { refuse } from '@/lib/errors/refusal';
import type { WaitlistEntry, WaitlistOffer } from '@/lib/scheduling/waitlist-contract';
import { entryRequestView } from './audit-views';
import { findEntry, listEntries, type EntryRow } from './entries-store';
import { latestOffers, type OfferRow } from './offers-store';

/**
 * The waitlist as a caller sees it (issue 48). Entries belong to their tenant like every other
 * object: an API client sees and acts on its own tenant's only, and any other id answers exactly
 * like an unknown one (404); staff with the scheduling role see every tenant's.
 */
function visibleTo(principal: Principal, entry: EntryRow | undefined): entry is EntryRow {
  if (!entry) return false;
  return principal.kind === 'staff' || entry.usuarioId === principal.usuarioId.toLowerCase();
}

const iso = (ms: number) => new Date(ms).toISOString();

function offerView(offer: OfferRow): WaitlistOffer {
  const holds = offer.status === 'ofertada' || offer.status === 'aceita';
  return {
    id: offer.id,
    nrSeqAgenda: offer.nrSeqAgenda,
    cdAgenda: offer.cdAgenda,
    dtAgenda: offer.dtAgenda,
    tokenReserva: holds ? offer.token : null,
    prazo: offer.deadline === null ? null : iso(offer.deadline),
    situacao: offer.status,
    criadaEm: iso(offer.createdAt),
  };
}

function entryView(entry: EntryRow, offer: OfferRow | undefined, place: number | null): WaitlistEntry {
  return {
    id: entry.id,
    ...entryRequestView(entry),
    situacao: entry.status,
    posicao: place,
    criadaEm: iso(entry.createdAt),
    oferta: offer ? offerView(offer) : null,
  };
}

/** Views of entries, each with its latest offer and its place among its tenant's waiting entries for the exam. */
export async function viewsOf(entries: readonly EntryRow[]): Promise<WaitlistEntry[]> {
  const db = await getDb();
  const offers = await latestOffers(
    db,
    entries.map((entry) => entry.id),
  );
  const places = new Map<string, number>();
  const lines = new Map<string, EntryRow[]>();
  for (const entry of entries.filter((candidate) => candidate.status === 'aguardando')) {
    const key = `${entry.usuarioId}:${entry.nrSeqProcInterno}`;
    if (!lines.has(key)) {
      lines.set(
        key,
        await listEntries(db, {
          usuarioId: entry.usuarioId,
          nrSeqProcInterno: entry.nrSeqProcInterno,
          statuses: ['aguardando'],
          limit: 100_000,
        }),
      );
    }
    places.set(entry.id, lines.get(key)!.findIndex((other) => other.id === entry.id) + 1);
  }
  return entries.map((entry) => entryView(entry, offers.get(entry.id), places.get(entry.id) ?? null));
}

export async function visibleEntry(principal: Principal, id: string): Promise<EntryRow> {
  const entry = await findEntry(await getDb(), id);
  if (!visibleTo(principal, entry)) throw refuse.notFound('No waitlist entry of yours has this id.');
  return entry;
}

export async function getEntry(principal: Principal, id: string): Promise<WaitlistEntry> {
  return (await viewsOf([await visibleEntry(principal, id)]))[0]!;
}

export async function currentOffer(entry: EntryRow): Promise<OfferRow | undefined> {
  return (await latestOffers(await getDb(), [entry.id])).get(entry.id);
}
