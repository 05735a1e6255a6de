import 'server-only';
import type { Knex } from 'knex';
import { isUniqueViolation, toNumber, type DbRow } from '@/lib/db/dialect';
import type { Incident } from '@/lib/webhooks/delivery/store';
import { newId } from '../delivery/ids';

/** The webhook_alerts table: one row per incident, open until the incident ends. */
export type StoredAlert = Incident & { id: string; createdAt: number };

/**
 * Records an incident; undefined when it was already recorded (by this or another instance).
 * `within` runs in the same transaction, only for the one instance whose row went in: what it writes
 * (the incident's operational event) is committed with the row, or not at all.
 */
export async function recordIncident(
  db: Knex,
  incident: Incident,
  now: number,
  within?: (trx: Knex.Transaction, alertId: string) => Promise<void>,
): Promise<string | undefined> {
  const id = newId('alr', now);
  try {
    await db.transaction(async (trx) => {
      await trx('webhook_alerts').insert({
        id,
        config_id: incident.configId,
        kind: incident.kind,
        incident_at: incident.since,
        created_at: now,
        emailed: 0,
      });
      await within?.(trx, id);
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

/** Open alerts, newest first: of these configurations (at most a page's, STAFF_PAGE_MAX), or every one. */
export async function openAlerts(db: Knex, configIds?: readonly string[]): Promise<StoredAlert[]> {
  let query = db('webhook_alerts').whereNull('resolved_at').orderBy('created_at', 'desc');
  if (configIds) query = query.whereIn('config_id', configIds.length > 0 ? configIds : ['']).limit(200);
  const rows = (await query) as DbRow[];
  return rows.map(alertFromRow);
}

/** Each configuration with an open alert and when its oldest open incident began (`config_id`, `alert_since`): the triage's ranking joins it (repository.ts). */
export function openAlertsSince(db: Knex): Knex.QueryBuilder {
  return db('webhook_alerts').whereNull('resolved_at').groupBy('config_id').select('config_id').min({ alert_since: 'incident_at' });
}

export type ListedAlert = StoredAlert & { url: string; usuarioId: string };

/**
 * A page of the open alerts of `configs` (repository.ts's visibleConfigs: id, url, usuario_id),
 * worst first (issue 27): tenants take turns, each one's worst alert before any tenant's second,
 * so however many alerts one tenant has, every other tenant's worst is on the first page (while
 * fewer tenants than a page holds have alerts). Within a turn, switched off before receiver down
 * (events are being skipped), then the oldest incident first.
 */
export async function openAlertPage(
  db: Knex,
  configs: Knex.QueryBuilder,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ alerts: ListedAlert[]; total: number }> {
  const open = () => db('webhook_alerts as a').whereNull('a.resolved_at').join(configs.clone().as('c'), 'c.id', 'a.config_id');
  const kindRank = ['case when ?? = ? then 0 else 1 end', ['a.kind', 'desativada']] as const;
  const turns = open().select(
    'a.id',
    'a.config_id',
    'a.kind',
    'a.incident_at',
    'a.created_at',
    'c.url',
    'c.usuario_id',
    db.raw(`${kindRank[0]} as ??`, [...kindRank[1], 'standing']),
    db.raw(`row_number() over (partition by ?? order by ${kindRank[0]}, ??, ??) as ??`, [
      'c.usuario_id',
      ...kindRank[1],
      'a.incident_at',
      'a.id',
      'tenant_turn',
    ]),
  );
  const [rows, counted] = await Promise.all([
    db
      .from(turns.as('t'))
      .orderBy(['t.tenant_turn', 't.standing', 't.incident_at', 't.id'])
      .limit(limit)
      .offset(offset)
      .select<DbRow[]>('t.*'),
    open().count({ n: '*' }).first() as Promise<DbRow | undefined>,
  ]);
  return {
    alerts: rows.map((row) => ({ ...alertFromRow(row), url: String(row.url), usuarioId: String(row.usuario_id) })),
    total: toNumber(counted?.n ?? 0),
  };
}

/**
 * Closes those of the `open` alerts (read before `current` was) whose incident is no longer
 * current: the receiver is back, or staff switched it on again. Each is closed by one instance only (the update that still finds it open),
 * which runs `within` in the same transaction (the recovery's operational event). Answers the
 * alerts this call closed.
 */
export async function resolveEnded(
  db: Knex,
  open: readonly StoredAlert[],
  current: readonly Incident[],
  now: number,
  within?: (trx: Knex.Transaction, alert: StoredAlert) => Promise<void>,
): Promise<StoredAlert[]> {
  const ongoing = new Set(current.map((incident) => `${incident.configId}|${incident.kind}|${incident.since}`));
  const ended = open.filter((alert) => !ongoing.has(`${alert.configId}|${alert.kind}|${alert.since}`));
  const resolved: StoredAlert[] = [];
  for (const alert of ended) {
    const closed = await db.transaction(async (trx) => {
      const updated = await trx('webhook_alerts').where({ id: alert.id }).whereNull('resolved_at').update({ resolved_at: now });
      if (updated === 1) await within?.(trx, alert);
      return updated === 1;
    });
    if (closed) resolved.push(alert);
  }
  return resolved;
}

/**
 * An ended incident whose receiver has not delivered since (switched back on, or a circuit closed by
 * an answer that was no success): `configuracao.recuperada` waits for the first delivery that
 * succeeds from `since` on (issue 45).
 */
export async function markAwaitingDelivery(trx: Knex.Transaction, alertId: string, since: number): Promise<void> {
  await trx('webhook_alerts').where({ id: alertId }).update({ awaiting_delivery_since: since });
}

/** Ended incidents still waiting for a delivery that succeeds, with since when. */
export async function awaitingDelivery(db: Knex): Promise<(StoredAlert & { awaitingSince: number })[]> {
  const rows = (await db('webhook_alerts').whereNotNull('awaiting_delivery_since').orderBy('created_at')) as DbRow[];
  return rows.map((row) => ({ ...alertFromRow(row), awaitingSince: toNumber(row.awaiting_delivery_since) }));
}

/**
 * Marks an awaiting incident confirmed, in the caller's transaction; true for the one instance
 * whose update found it still waiting (it publishes the recovery, once).
 */
export async function confirmDelivered(trx: Knex.Transaction, alertId: string): Promise<boolean> {
  const updated = await trx('webhook_alerts')
    .where({ id: alertId })
    .whereNotNull('awaiting_delivery_since')
    .update({ awaiting_delivery_since: null });
  return updated === 1;
}

export async function deleteAlertsOf(trx: Knex.Transaction, configId: string): Promise<void> {
  await trx('webhook_alerts').where({ config_id: configId }).delete();
}
