import 'server-only';
import { getDb } from '@/lib/db/handle';
import type { Principal } from '@/lib/auth/principal';
import { WINDOW_HOURS, type DeliveryHealth, type HealthState, type HealthWindow, type PageQuery, type TriagePage } from './health-contract';
import { findWebhooks, rankTriage, type DeliveryState, type StoredWebhook } from '@/lib/webhooks/configurations/store/configs';
import { getWebhook } from '../configurations/service/configurations';
import { openAlerts, openAlertsSince } from '../alerts/store';
import { phaseOf } from './circuit';
import { backlogByConfig, countFiltered, dueDeliveriesOf, hourlyAttempts, type Backlog, type HourOfAttempts } from './store';

/**
 * Delivery health (issue 20 §3): each configuration's attempts hour by hour from the delivery log,
 * its state and its backlog, for the chart on its page and the staff's triage list.
 */
const HOUR_MS = 3_600_000;
/** The triage list looks at the last day. */
const TRIAGE_HOURS = 24;
const NO_BACKLOG: Backlog = { due: 0, oldestDueAt: null };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The whole hours of a window ending with the current one, oldest first, as hours since the epoch. */
function windowHours(hours: number, now: number): number[] {
  const current = Math.floor(now / HOUR_MS);
  return Array.from({ length: hours }, (_, i) => current - hours + 1 + i);
}

function totalsOf(hours: readonly Pick<HourOfAttempts, 'delivered' | 'failed'>[]) {
  const entregues = hours.reduce((sum, hour) => sum + hour.delivered, 0);
  const falhas = hours.reduce((sum, hour) => sum + hour.failed, 0);
  return { entregues, falhas, taxaSucesso: entregues + falhas === 0 ? null : entregues / (entregues + falhas) };
}

function stateOf(
  state: DeliveryState,
  now: number,
): { estado: HealthState; desde: number | null; ate: number | null; motivo: string | null } {
  if (!state.enabled) return { estado: 'desativada', desde: state.disabledAt, ate: null, motivo: state.disabledReason };
  if (phaseOf(state.circuit, now) === 'open') {
    return { estado: 'circuito-aberto', desde: state.circuit.openedAt, ate: state.circuit.openUntil, motivo: null };
  }
  if (state.failingSince !== null) return { estado: 'falhando', desde: state.failingSince, ate: null, motivo: null };
  return { estado: 'saudavel', desde: null, ate: null, motivo: null };
}

/** A backlog held back by the configuration's rate limit, or by a pause its receiver asked for. */
function heldBackBy({ state, controls }: Pick<StoredWebhook, 'state' | 'controls'>, backlog: Backlog, now: number) {
  if (state.pausedUntil !== null && state.pausedUntil > now) return 'pausa-do-receptor' as const;
  return controls.ratePerSecond !== null && backlog.due > 0 ? ('limite-de-taxa' as const) : null;
}

function situationOf(stored: Pick<StoredWebhook, 'state' | 'controls'>, backlog: Backlog, now: number) {
  const { estado, desde, ate, motivo } = stateOf(stored.state, now);
  return {
    estado,
    desde: iso(desde),
    ate: iso(ate),
    motivo,
    devidas: backlog.due,
    maisAntigaDevidaDesde: iso(backlog.oldestDueAt),
    aguardandoNovaTentativa: backlog.waiting ?? 0,
    retidaPor: heldBackBy(stored, backlog, now),
  };
}

/** One configuration's health over the window: a 404 for another tenant's, as everywhere. */
export async function deliveryHealth(principal: Principal, id: string, window: HealthWindow): Promise<DeliveryHealth> {
  const stored = await getWebhook(principal, id);
  const now = Date.now();
  const hours = windowHours(WINDOW_HOURS[window], now);
  const db = await getDb();
  const since = hours[0]! * HOUR_MS;
  const [rows, backlogs, filtradas] = await Promise.all([
    hourlyAttempts(db, [id], since),
    backlogByConfig(db, [id], now),
    countFiltered(db, id, since),
  ]);
  const byHour = new Map(rows.map((row) => [row.hour, row]));
  const points = hours.map((hour) => {
    const row = byHour.get(hour);
    const attempts = (row?.delivered ?? 0) + (row?.failed ?? 0);
    return {
      inicio: new Date(hour * HOUR_MS).toISOString(),
      entregues: row?.delivered ?? 0,
      falhas: row?.failed ?? 0,
      latenciaMediaMs: row && attempts > 0 ? Math.round(row.durationMs / attempts) : null,
    };
  });
  return {
    janela: window,
    horas: points,
    totais: { ...totalsOf(rows), filtradas },
    situacao: situationOf(stored, backlogs.get(id) ?? NO_BACKLOG, now),
  };
}

/**
 * A page of the configurations the caller may see, worst first (repository.ts's rankTriage: an
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
  const [configs, rows, backlogs, alerts] = await Promise.all([
    findWebhooks(db, ids),
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
        situacao: situationOf(stored, backlogs.get(id) ?? NO_BACKLOG, now),
        alerta: alert ? { tipo: alert.kind, desde: new Date(alert.since).toISOString() } : null,
        totais: totalsOf(own),
        horas: hours.map((hour) => ({ entregues: byHour.get(hour)?.delivered ?? 0, falhas: byHour.get(hour)?.failed ?? 0 })),
      },
    ];
  });
  return { itens, total, pagina, limite };
}
