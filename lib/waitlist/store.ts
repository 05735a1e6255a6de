import 'server-only';
import type { Knex } from 'knex';
import { toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import { OPEN_ENTRY_STATES, type WaitlistEntryState, type WaitlistOfferState } from '@/lib/scheduling/waitlist-contract';

/**
 * The waitlist's tables (issue 48): entries, offers and each exam's turns between tenants. The only
 * module that queries them. Every change of state is one guarded update (`where status = …`), so
 * of two instances acting on the same row only one succeeds; an offer's `active_slot` (unique)
 * lets one offer at a time hold a slot.
 */
type Db = Knex | Knex.Transaction;

export type EntryRow = {
  id: string;
  usuarioId: string;
  owner: string;
  createdBy: string;
  nrSeqProcInterno: number;
  ieLado: 'E' | 'D' | 'A' | null;
  nrMinDuracao: number;
  agendas: number[] | null;
  windowFrom: number;
  windowTo: number;
  cdPessoaFisica: number;
  cdConvenio: number;
  cdCategoria: number;
  cdPlano: number;
  cdUsuarioConvenio: string;
  nmUsuario: string;
  status: WaitlistEntryState;
  position: number;
  retryAt: number | null;
  createdAt: number;
  updatedAt: number;
};

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

const optional = (value: unknown): number | null => (value === null || value === undefined ? null : toNumber(value));

function entryOf(row: DbRow): EntryRow {
  return {
    id: String(row.id),
    usuarioId: String(row.usuario_id),
    owner: String(row.owner),
    createdBy: String(row.created_by),
    nrSeqProcInterno: toNumber(row.nr_seq_proc_interno),
    ieLado: (row.ie_lado ?? null) as EntryRow['ieLado'],
    nrMinDuracao: toNumber(row.nr_min_duracao),
    agendas: row.agendas_json ? (JSON.parse(row.agendas_json as string) as number[]) : null,
    windowFrom: toNumber(row.window_from),
    windowTo: toNumber(row.window_to),
    cdPessoaFisica: toNumber(row.cd_pessoa_fisica),
    cdConvenio: toNumber(row.cd_convenio),
    cdCategoria: toNumber(row.cd_categoria),
    cdPlano: toNumber(row.cd_plano),
    cdUsuarioConvenio: String(row.cd_usuario_convenio),
    nmUsuario: String(row.nm_usuario),
    status: String(row.status) as WaitlistEntryState,
    position: toNumber(row.position),
    retryAt: optional(row.retry_at),
    createdAt: toNumber(row.created_at),
    updatedAt: toNumber(row.updated_at),
  };
}

function offerOf(row: DbRow): OfferRow {
  return {
    id: String(row.id),
    entryId: String(row.entry_id),
    usuarioId: String(row.usuario_id),
    nrSeqAgenda: toNumber(row.nr_seq_agenda),
    cdAgenda: toNumber(row.cd_agenda),
    dtAgenda: String(row.dt_agenda),
    token: (row.token ?? null) as string | null,
    status: String(row.status) as WaitlistOfferState,
    releaseAs: (row.release_as ?? null) as WaitlistOfferState | null,
    leaseOwner: (row.lease_owner ?? null) as string | null,
    leaseUntil: optional(row.lease_until),
    deadline: optional(row.deadline),
    announced: toBoolean(row.announced),
    createdAt: toNumber(row.created_at),
    endedAt: optional(row.ended_at),
  };
}

export async function insertEntry(db: Db, entry: EntryRow): Promise<void> {
  await db('waitlist_entries').insert({
    id: entry.id,
    usuario_id: entry.usuarioId,
    owner: entry.owner,
    created_by: entry.createdBy,
    nr_seq_proc_interno: entry.nrSeqProcInterno,
    ie_lado: entry.ieLado,
    nr_min_duracao: entry.nrMinDuracao,
    agendas_json: entry.agendas ? JSON.stringify(entry.agendas) : null,
    window_from: entry.windowFrom,
    window_to: entry.windowTo,
    cd_pessoa_fisica: entry.cdPessoaFisica,
    cd_convenio: entry.cdConvenio,
    cd_categoria: entry.cdCategoria,
    cd_plano: entry.cdPlano,
    cd_usuario_convenio: entry.cdUsuarioConvenio,
    nm_usuario: entry.nmUsuario,
    status: entry.status,
    position: entry.position,
    retry_at: entry.retryAt,
    created_at: entry.createdAt,
    updated_at: entry.updatedAt,
  });
}

/** A tenant's entries still in line: what its quota counts. */
export async function countOpenEntries(db: Db, usuarioId: string): Promise<number> {
  const rows: DbRow[] = await db('waitlist_entries')
    .where({ usuario_id: usuarioId })
    .whereIn('status', OPEN_ENTRY_STATES)
    .count({ n: '*' });
  return toNumber(rows[0]?.n ?? 0);
}

export async function findEntry(db: Db, id: string): Promise<EntryRow | undefined> {
  const rows = (await db('waitlist_entries').where({ id }).select('*')) as DbRow[];
  return rows[0] ? entryOf(rows[0]) : undefined;
}

export type EntryFilter = { usuarioId?: string; nrSeqProcInterno?: number; statuses?: readonly WaitlistEntryState[]; limit: number };

/** Entries in line order (position), newest last. */
export async function listEntries(db: Db, filter: EntryFilter): Promise<EntryRow[]> {
  let query = db('waitlist_entries').select('*');
  if (filter.usuarioId !== undefined) query = query.where({ usuario_id: filter.usuarioId });
  if (filter.nrSeqProcInterno !== undefined) query = query.where({ nr_seq_proc_interno: filter.nrSeqProcInterno });
  if (filter.statuses) query = query.whereIn('status', filter.statuses);
  const rows = (await query.orderBy([{ column: 'position' }, { column: 'id' }]).limit(filter.limit)) as DbRow[];
  return rows.map(entryOf);
}

/** Entries in line whose window has not passed and whose back-off (retry_at) is over, in line order. */
export async function waitingEntries(db: Db, now: number, limit: number): Promise<EntryRow[]> {
  const rows = (await db('waitlist_entries')
    .where({ status: 'aguardando' })
    .andWhere('window_to', '>', now)
    .andWhere((q) => void q.whereNull('retry_at').orWhere('retry_at', '<=', now))
    .select('*')
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .limit(limit)) as DbRow[];
  return rows.map(entryOf);
}

/** The positions of an exam's waiting line, in order, for a move. */
export async function linePositions(db: Db, nrSeqProcInterno: number): Promise<{ id: string; position: number }[]> {
  const rows = (await db('waitlist_entries')
    .where({ nr_seq_proc_interno: nrSeqProcInterno, status: 'aguardando' })
    .select('id', 'position')
    .orderBy([{ column: 'position' }, { column: 'id' }])) as DbRow[];
  return rows.map((row) => ({ id: String(row.id), position: toNumber(row.position) }));
}

/** Moves an entry from one state to another; answers whether it was in `from` (the guard). */
export async function moveEntryState(
  db: Db,
  id: string,
  from: readonly WaitlistEntryState[],
  to: WaitlistEntryState,
  now: number,
  extra: { retryAt?: number | null; position?: number } = {},
): Promise<boolean> {
  const changes: Record<string, unknown> = { status: to, updated_at: now };
  if (extra.retryAt !== undefined) changes.retry_at = extra.retryAt;
  if (extra.position !== undefined) changes.position = extra.position;
  const updated = await db('waitlist_entries').where({ id }).whereIn('status', from).update(changes);
  return updated === 1;
}

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

/** When each tenant waiting for an exam was last offered one of its slots (the turns between tenants). */
export async function turnsOf(db: Db, nrSeqProcInterno: number): Promise<Map<string, number>> {
  const rows: DbRow[] = await db('waitlist_turns').where({ nr_seq_proc_interno: nrSeqProcInterno }).select('usuario_id', 'last_offer_at');
  return new Map(rows.map((row) => [String(row.usuario_id), toNumber(row.last_offer_at)]));
}

export async function recordTurn(db: Db, nrSeqProcInterno: number, usuarioId: string, at: number): Promise<void> {
  const updated = await db('waitlist_turns')
    .where({ nr_seq_proc_interno: nrSeqProcInterno, usuario_id: usuarioId })
    .update({ last_offer_at: at });
  if (updated === 0) await db('waitlist_turns').insert({ nr_seq_proc_interno: nrSeqProcInterno, usuario_id: usuarioId, last_offer_at: at });
}
