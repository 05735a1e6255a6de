import 'server-only';
import type { Knex } from 'knex';
import { getDb } from '@/lib/db';
import { toNumber } from '@/lib/db/dialect';
import { actorId, type Principal } from '@/lib/auth/principal';

/**
 * Who changed what, when, with what outcome. Callers pass before/after values already masked
 * (see masking.ts): the trail is read by operators and must not hold secrets or patient data.
 */
export type AuditAction = 'webhook.update' | 'slot.reserve' | 'slot.release';

export type AuditEntry = {
  id: string;
  at: string;
  actorKind: Principal['kind'];
  actorId: string;
  action: AuditAction;
  target: string;
  outcome: string;
  httpStatus: number | null;
  before: unknown;
  after: unknown;
};

export async function recordAudit(
  db: Knex | Knex.Transaction,
  entry: { principal: Principal; action: AuditAction; target: string; outcome: string; httpStatus?: number; before?: unknown; after?: unknown },
): Promise<void> {
  await db('audit_events').insert({
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

export async function listAudit(filter: { actions?: AuditAction[]; actorId?: string; limit?: number } = {}): Promise<AuditEntry[]> {
  const db = await getDb();
  let query = db('audit_events').orderBy([{ column: 'at_ms', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(filter.limit ?? 50);
  if (filter.actions?.length) query = query.whereIn('action', filter.actions);
  if (filter.actorId) query = query.where({ actor_id: filter.actorId });
  const rows = await query;
  return rows.map((row) => ({
    id: row.id,
    at: new Date(toNumber(row.at_ms)).toISOString(),
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    action: row.action,
    target: row.target,
    outcome: row.outcome,
    httpStatus: row.http_status === null ? null : toNumber(row.http_status),
    before: row.before_json ? JSON.parse(row.before_json) : null,
    after: row.after_json ? JSON.parse(row.after_json) : null,
  }));
}
