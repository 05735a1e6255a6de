import 'server-only';
import type { Knex } from 'knex';
import { isUniqueViolation, toNumber, type DbRow } from '@/lib/db/dialect';
import type { Incident } from '../repository';
import { newId } from '../delivery/ids';

/** The webhook_alerts table: one row per incident, open until the incident ends. */
export type StoredAlert = Incident & { id: string; createdAt: number };

/** Records an incident; undefined when it was already recorded (by this or another instance). */
export async function recordIncident(db: Knex, incident: Incident, now: number): Promise<string | undefined> {
  const id = newId('alr', now);
  try {
    await db('webhook_alerts').insert({
      id,
      config_id: incident.configId,
      kind: incident.kind,
      incident_at: incident.since,
      created_at: now,
      emailed: 0,
    });
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

export async function markEmailed(db: Knex, id: string): Promise<void> {
  await db('webhook_alerts').where({ id }).update({ emailed: 1 });
}

function alertFromRow(row: DbRow): StoredAlert {
  return {
    id: String(row.id),
    configId: String(row.config_id),
    kind: row.kind === 'desativada' ? 'desativada' : 'circuito-aberto',
    since: toNumber(row.incident_at),
    createdAt: toNumber(row.created_at),
  };
}

/** Open alerts, newest first: of these configurations, at most 200 (what the console shows); or every one. */
export async function openAlerts(db: Knex, configIds?: readonly string[]): Promise<StoredAlert[]> {
  let query = db('webhook_alerts').whereNull('resolved_at').orderBy('created_at', 'desc');
  if (configIds) query = query.whereIn('config_id', configIds.length > 0 ? configIds : ['']).limit(200);
  const rows = (await query) as DbRow[];
  return rows.map(alertFromRow);
}

/** Closes the open alerts whose incident is no longer current: the receiver is back, or staff switched it on again. */
export async function resolveEnded(db: Knex, current: readonly Incident[], now: number): Promise<number> {
  const ongoing = new Set(current.map((incident) => `${incident.configId}|${incident.kind}|${incident.since}`));
  const ended = (await openAlerts(db)).filter((alert) => !ongoing.has(`${alert.configId}|${alert.kind}|${alert.since}`));
  if (ended.length === 0) return 0;
  return db('webhook_alerts')
    .whereIn(
      'id',
      ended.map((alert) => alert.id),
    )
    .update({ resolved_at: now });
}

export async function deleteAlertsOf(trx: Knex.Transaction, configId: string): Promise<void> {
  await trx('webhook_alerts').where({ config_id: configId }).delete();
}
