import 'server-only';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { rowReader, toOptionalNumber, type Db } from '@/lib/db/rows';
import { OPEN_ENTRY_STATES, type WaitlistEntryState } from '@/lib/scheduling/waitlist-contract';

/**
 * The waitlist's entries (issue 48, table waitlist_entries): the only module that queries them.
 * Every change of state is one guarded update (`where status = …`), so of two instances acting on
 * the same row only one succeeds.
 */
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

const entryOf = rowReader<EntryRow>({
  id: String,
  usuarioId: String,
  owner: String,
  createdBy: String,
  nrSeqProcInterno: toNumber,
  ieLado: (value) => (value ?? null) as EntryRow['ieLado'],
  nrMinDuracao: toNumber,
  agendas: { column: 'agendas_json', read: (value) => (value ? (JSON.parse(value as string) as number[]) : null) },
  windowFrom: toNumber,
  windowTo: toNumber,
  cdPessoaFisica: toNumber,
  cdConvenio: toNumber,
  cdCategoria: toNumber,
  cdPlano: toNumber,
  cdUsuarioConvenio: String,
  nmUsuario: String,
  status: (value) => String(value) as WaitlistEntryState,
  position: toNumber,
  retryAt: toOptionalNumber,
  createdAt: toNumber,
  updatedAt: toNumber,
});

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
