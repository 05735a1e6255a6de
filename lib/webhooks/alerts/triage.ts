import 'server-only';
import { getDb } from '@/lib/db/handle';
import type { Principal } from '@/lib/auth/principal';
import type { PageQuery, TriagePage } from '../delivery/health-contract';
import { findWebhooks } from '../configurations/store/configs';
import { HOUR_MS, NO_BACKLOG, situationOf, totalsOf, windowHours } from '../delivery/health';
import {
  backlogByConfig,
  dueDeliveriesOf,
  findReceiverStates,
  hourlyAttempts,
  NEW_RECEIVER,
  rankTriage,
  type HourOfAttempts,
} from '../delivery/store';
import { openAlerts, openAlertsSince } from './store';

/** The triage list looks at the last day. */
const TRIAGE_HOURS = 24;

/**
 * A page of the configurations the caller may see, worst first (store/triage.ts's rankTriage: an
 * open alert, failing, paused, switched off, a backlog, healthy; tenants taking turns within
 * each), with each one's last day hour by hour (the sparkline).
 */
export async function deliveryTriage(principal: Principal, { limite, pagina }: PageQuery): Promise<TriagePage> {
  const db = await getDb();
  const usuarioId = principal.kind === 'api-client' ? principal.usuarioId.toLowerCase() : undefined;
  const now = Date.now();
  const { ids, total } = await rankTriage(
    db,
    { usuarioId, now, limit: limite, offset: (pagina - 1) * limite },
    { openAlertsSince: openAlertsSince(db), dueDeliveries: (column) => dueDeliveriesOf(db, column, now) },
  );
  const hours = windowHours(TRIAGE_HOURS, now);
  const [configs, receivers, rows, backlogs, alerts] = await Promise.all([
    findWebhooks(db, ids),
    findReceiverStates(db, ids),
    hourlyAttempts(db, ids, hours[0]! * HOUR_MS),
    backlogByConfig(db, ids, now),
    openAlerts(db, ids),
  ]);
  const rowsByConfig = new Map<string, HourOfAttempts[]>();
  for (const row of rows) {
    const own = rowsByConfig.get(row.configId);
    if (own) own.push(row);
    else rowsByConfig.set(row.configId, [row]);
  }
  // The oldest open alert of each (openAlerts answers newest first).
  const alertOf = new Map(alerts.map((alert) => [alert.configId, alert]));
  const itens = ids.flatMap((id) => {
    const stored = configs.get(id);
    // Deleted between the ranking and this read: left out of the page.
    if (!stored) return [];
    const { config } = stored;
    const own = rowsByConfig.get(id) ?? [];
    const byHour = new Map(own.map((row) => [row.hour, row]));
    const alert = alertOf.get(id);
    return [
      {
        id,
        url: config.url,
        usuarioId: config.usuarioId,
        clientId: config.clientId,
        situacao: situationOf(stored, receivers.get(id) ?? NEW_RECEIVER, backlogs.get(id) ?? NO_BACKLOG, now),
        alerta: alert ? { tipo: alert.kind, desde: new Date(alert.since).toISOString() } : null,
        totais: totalsOf(own),
        horas: hours.map((hour) => ({ entregues: byHour.get(hour)?.delivered ?? 0, falhas: byHour.get(hour)?.failed ?? 0 })),
      },
    ];
  });
  return { itens, total, pagina, limite };
}
