import 'server-only';
import type { Knex } from 'knex';
import { getDb } from '@/lib/db/handle';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { actorId, type Principal } from '@/lib/auth/principal';
import type { AuditAction, AuditEntry, AuditQuery } from '@/lib/audit/contract';
import { precompiledInsert, type Executor } from '@/lib/db/precompiled';

/**
 * Who changed what, when, with what outcome. Callers pass before/after values already masked
 * (see masking.ts): the trail is read by operators and must not hold secrets or patient data.
 */
export type { AuditAction, AuditEntry };

/** Every action writes one of these; precompiled, since reservations write one each (lib/db/precompiled.ts). */
const insertAuditEvent = precompiledInsert('audit_events', [
  'id',
  'at_ms',
  'actor_kind',
  'actor_id',
  'action',
  'target',
  'outcome',
  'http_status',
  'before_json',
  'after_json',
]);

export async function recordAudit(
  db: Executor,
  entry: {
    principal: Principal;
    action: AuditAction;
    target: string;
    outcome: string;
    httpStatus?: number;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await insertAuditEvent.run(db, {
    id: crypto.randomUUID(),
    at_ms: Date.now(),
    actor_kind: entry.principal.kind,
    actor_id: actorId(entry.principal),
    action: entry.action,
    target: entry.target,
    outcome: entry.outcome,
    http_status: entry.httpStatus ?? null,
    before_json: entry.before === undefined ? null : JSON.stringify(entry.before),
    after_json: entry.after === undefined ? null : JSON.stringify(entry.after),
  });
}

/**
 * Deletes up to `batch` entries older than `before` (AUDIT_RETENTION_DAYS, lib/retention.ts);
 * answers how many, so the caller repeats it in short transactions instead of one long lock.
 */
export async function pruneAuditBatch(db: Knex, before: number, batch: number): Promise<number> {
  const rows = await db('audit_events').where('at_ms', '<', before).orderBy('at_ms').limit(batch).select<DbRow[]>('id');
  if (rows.length === 0) return 0;
  return db('audit_events')
    .whereIn(
      'id',
      rows.map((row) => String(row.id)),
    )
    .delete();
}

/**
 * Newest first; every filter optional. `acoes` (several actions at once) and `alvos` (several
 * targets at once) are for internal readers such as the recent-reservations list.
 */
export async function listAudit(
  filter: Partial<AuditQuery> & { acoes?: readonly AuditAction[]; alvos?: readonly string[] } = {},
): Promise<AuditEntry[]> {
  const db = await getDb();
  let query = db('audit_events')
    .orderBy([
      { column: 'at_ms', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(filter.limite ?? 50);
  if (filter.acao) query = query.where({ action: filter.acao });
  if (filter.acoes) query = query.whereIn('action', [...filter.acoes]);
  if (filter.ator) query = query.where({ actor_id: filter.ator });
  if (filter.alvo) query = query.where({ target: filter.alvo });
  if (filter.alvos) query = query.whereIn('target', [...filter.alvos]);
  if (filter.antes) query = query.where('at_ms', '<', Date.parse(filter.antes));
  const rows = (await query) as DbRow[];
  return rows.map((row) => ({
    id: String(row.id),
    em: new Date(toNumber(row.at_ms)).toISOString(),
    tipoAtor: row.actor_kind as AuditEntry['tipoAtor'],
    ator: String(row.actor_id),
    acao: row.action as AuditAction,
    alvo: String(row.target),
    resultado: String(row.outcome),
    statusHttp: row.http_status === null || row.http_status === undefined ? null : toNumber(row.http_status),
    antes: parseJsonColumn(row.before_json),
    depois: parseJsonColumn(row.after_json),
  }));
}

/** JSON is stored as text; empty means "no value". */
function parseJsonColumn(value: unknown): AuditEntry['antes'] {
  return typeof value === 'string' && value ? (JSON.parse(value) as AuditEntry['antes']) : null;
}
