import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { maskIdentifier } from '@/lib/audit/masking';
import { actorId, ownerKey, type Principal } from '@/lib/auth/principal';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { precompiled, precompiledInsert, type Executor } from '@/lib/db/precompiled';
import { IE_LADO, type SlotReservationRequest } from '@/lib/scheduling/contract';
import { reservationState, type RecentReservation } from '@/lib/scheduling/recent-reservations';
import { openReleaseIdentifiers, sealReleaseIdentifiers } from '@/lib/scheduling/release-identifiers';

/**
 * The read model of reservations made through the service (table `reservation_log`), the same on
 * every back-end: the service writes it after the back-end answered, with the caller's owner key.
 * API clients see their own reservations only; staff act for the hospital and see all. A reservation
 * staff make also keeps its patient's identifiers sealed (`release_sealed`, release-identifiers.ts)
 * while it is releasable, for the console's one-click release.
 */
const TABLE = 'reservation_log';

const insertLogRow = precompiledInsert(TABLE, [
  'id',
  'token',
  'owner',
  'actor_id',
  'state',
  'nr_seq_agenda',
  'nr_seq_proc_interno',
  'nr_min_duracao',
  'ie_lado',
  'cd_convenio',
  'cd_categoria',
  'cd_plano',
  'nm_usuario',
  'cd_pessoa_fisica_masked',
  'cd_usuario_convenio_masked',
  'created_at',
  'released_at',
  'expires_at',
  'release_sealed',
]);
const markReleased = precompiled<[number, string, number]>(3, (db, at, token, agenda) =>
  db(TABLE).where({ token, nr_seq_agenda: agenda, state: 'active' }).update({ state: 'released', released_at: at, release_sealed: null }),
);

/**
 * A successful reserve (CODIGO_P 0). Patient identifiers are stored masked, never in clear; for a
 * reservation staff make, sealed to the row too, for its release.
 */
export async function recordReservation(
  db: Executor,
  principal: Principal,
  request: SlotReservationRequest,
  result: { token: string; expiresAt?: number; at: number },
): Promise<void> {
  const id = randomUUID();
  await insertLogRow.run(db, {
    id,
    token: result.token,
    owner: ownerKey(principal),
    actor_id: actorId(principal),
    state: 'active',
    nr_seq_agenda: request.nrSeqAgenda,
    nr_seq_proc_interno: request.nrSeqProcInterno,
    nr_min_duracao: request.nrMinDuracao,
    ie_lado: request.ieLado ?? null,
    cd_convenio: request.cdConvenio,
    cd_categoria: request.cdCategoria,
    cd_plano: request.cdPlano,
    nm_usuario: request.nmUsuario,
    cd_pessoa_fisica_masked: maskIdentifier(request.cdPessoaFisica) ?? '',
    cd_usuario_convenio_masked: maskIdentifier(request.cdUsuarioConvenio, 4) ?? '',
    created_at: result.at,
    released_at: null,
    expires_at: result.expiresAt ?? null,
    release_sealed: principal.kind === 'staff' ? sealReleaseIdentifiers(id, request) : null,
  });
}

/**
 * A successful release (CODIGO_P 1): the back-end already decided who may release (the embedded
 * scheduler checks the owner, the hospital's procedure decides on Oracle), so whoever released it,
 * the owner's list shows it released.
 */
export async function recordRelease(db: Executor, request: SlotReservationRequest, at: number): Promise<void> {
  await markReleased.run(db, at, request.tokenReservaCanc ?? '', request.nrSeqAgenda);
}

/** What the one-click release found for a token: the release request to send, or why there is none. */
export type ReleaseLookup =
  | { kind: 'ready'; request: SlotReservationRequest }
  | { kind: 'unknown' }
  | { kind: 'not-releasable'; estado: RecentReservation['estado'] }
  | { kind: 'not-kept' };

/**
 * The release (CR) of the newest reservation with this token the principal may see (an API client
 * its own), built from its log row and its sealed identifiers.
 */
export async function releaseRequestFor(db: Knex, principal: Principal, token: string, now: number): Promise<ReleaseLookup> {
  let query = db(TABLE).where({ token });
  if (principal.kind === 'api-client') query = query.andWhere({ owner: ownerKey(principal) });
  const row = (await query.orderBy('created_at', 'desc').first()) as DbRow | undefined;
  if (!row) return { kind: 'unknown' };
  const reservation = toRecentReservation(row, now);
  if (reservation.estado !== 'active') return { kind: 'not-releasable', estado: reservation.estado };
  if (!reservation.liberacaoDireta) return { kind: 'not-kept' };
  // A value that does not open (AUTH_SECRET changed since, or moved from another row) is as good as none.
  let identifiers: ReturnType<typeof openReleaseIdentifiers>;
  try {
    identifiers = openReleaseIdentifiers(String(row.id), String(row.release_sealed));
  } catch {
    return { kind: 'not-kept' };
  }
  return {
    kind: 'ready',
    request: {
      ieOpcao: 'CR',
      tokenReservaCanc: reservation.token,
      nrSeqAgenda: reservation.nrSeqAgenda,
      nrSeqProcInterno: toNumber(row.nr_seq_proc_interno),
      nrMinDuracao: toNumber(row.nr_min_duracao),
      ...sideOf(row.ie_lado),
      cdConvenio: toNumber(row.cd_convenio),
      cdCategoria: toNumber(row.cd_categoria),
      cdPlano: toNumber(row.cd_plano),
      nmUsuario: String(row.nm_usuario),
      ...identifiers,
    },
  };
}

const sideOf = (stored: unknown) => {
  const ieLado = IE_LADO.find((side) => side === stored);
  return ieLado ? { ieLado } : {};
};

/**
 * Clears the sealed identifiers of reservations no longer releasable: released (cleared then
 * already, unless released elsewhere) or past their hold's expiry. The retention sweep runs it.
 */
export async function purgeReleaseIdentifiers(db: Knex, now: number): Promise<number> {
  return db(TABLE)
    .whereNotNull('release_sealed')
    .andWhere((q) => {
      void q.whereNot({ state: 'active' }).orWhere('expires_at', '<=', now);
    })
    .update({ release_sealed: null });
}

/** The owner's reservations that still hold a slot at `now`, and when the oldest of them lapses. */
export async function activeHolds(db: Knex, owner: string, now: number): Promise<{ count: number; oldestExpiresAt: number | null }> {
  const row = (await db(TABLE)
    .where({ owner, state: 'active' })
    .andWhere((q) => {
      void q.whereNull('expires_at').orWhere('expires_at', '>', now);
    })
    .count({ n: '*' })
    .min({ oldest: 'expires_at' })
    .first()) as DbRow | undefined;
  return { count: toNumber(row?.n ?? 0), oldestExpiresAt: row?.oldest == null ? null : toNumber(row.oldest) };
}

/** Newest first: staff see everyone's, an API client only its own (its owner key, not its client id). */
export async function listRecentReservations(db: Knex, principal: Principal, limit: number, now: number): Promise<RecentReservation[]> {
  let query = db(TABLE).select('*');
  if (principal.kind === 'api-client') query = query.where({ owner: ownerKey(principal) });
  const rows = (await query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }]).limit(limit)) as DbRow[];
  return rows.map((row) => toRecentReservation(row, now));
}

const iso = (ms: unknown) => (ms === null || ms === undefined ? null : new Date(toNumber(ms)).toISOString());
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));

function toRecentReservation(row: DbRow, now: number): RecentReservation {
  const expiresAt = numberOrNull(row.expires_at);
  return {
    token: String(row.token),
    em: iso(row.created_at) ?? '',
    ator: String(row.actor_id),
    estado: reservationState(row.state === 'released' ? 'released' : 'active', expiresAt, now),
    liberadaEm: iso(row.released_at),
    expiraEm: iso(expiresAt),
    nrSeqAgenda: toNumber(row.nr_seq_agenda),
    nrSeqProcInterno: numberOrNull(row.nr_seq_proc_interno),
    nrMinDuracao: numberOrNull(row.nr_min_duracao),
    ieLado: typeof row.ie_lado === 'string' ? row.ie_lado : null,
    cdConvenio: numberOrNull(row.cd_convenio),
    cdCategoria: numberOrNull(row.cd_categoria),
    cdPlano: numberOrNull(row.cd_plano),
    nmUsuario: String(row.nm_usuario),
    cdPessoaFisica: String(row.cd_pessoa_fisica_masked),
    cdUsuarioConvenio: String(row.cd_usuario_convenio_masked),
    liberacaoDireta: typeof row.release_sealed === 'string',
  };
}
