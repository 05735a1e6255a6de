import 'server-only';
import { getDb } from '@/lib/data';
import type { Principal } from '@/lib/auth/principal';
import { HEALTH_STATES, WINDOW_HOURS, type DeliveryHealth, type HealthState, type HealthWindow, type TriageItem } from '../health-contract';
import { listWebhooks, type DeliveryState, type StoredWebhook } from '../repository';
import { getWebhook } from '../service';
import { phaseOf } from './circuit';
import { backlogByConfig, hourlyAttempts, type Backlog, type HourOfAttempts } from './store';

/**
 * Delivery health (issue 20 §3): each configuration's attempts hour by hour from the delivery log,
 * its state and its backlog, for the chart on its page and the staff's triage list.
 */
const HOUR_MS = 3_600_000;
/** The triage list looks at the last day. */
const TRIAGE_HOURS = 24;
/** Configurations on the triage list: as many as the console lists. */
const TRIAGE_LIMIT = 500;
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

function situationOf(state: DeliveryState, backlog: Backlog, now: number) {
  const { estado, desde, ate, motivo } = stateOf(state, now);
  return { estado, desde: iso(desde), ate: iso(ate), motivo, devidas: backlog.due, maisAntigaDevidaDesde: iso(backlog.oldestDueAt) };
}

/** One configuration's health over the window: a 404 for another tenant's, as everywhere. */
export async function deliveryHealth(principal: Principal, id: string, window: HealthWindow): Promise<DeliveryHealth> {
  const stored = await getWebhook(principal, id);
  const now = Date.now();
  const hours = windowHours(WINDOW_HOURS[window], now);
  const db = await getDb();
  const [rows, backlogs] = await Promise.all([hourlyAttempts(db, [id], hours[0]! * HOUR_MS), backlogByConfig(db, [id], now)]);
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
    totais: totalsOf(rows),
    situacao: situationOf(stored.state, backlogs.get(id) ?? NO_BACKLOG, now),
  };
}

/** Worst first: failing, paused, switched off, then healthy; within each, the lowest success rate first. */
function triageOrder(a: TriageItem, b: TriageItem): number {
  const byState = HEALTH_STATES.indexOf(a.situacao.estado) - HEALTH_STATES.indexOf(b.situacao.estado);
  if (byState !== 0) return byState;
  const byRate = (a.totais.taxaSucesso ?? 1) - (b.totais.taxaSucesso ?? 1);
  return byRate !== 0 ? byRate : a.url.localeCompare(b.url);
}

/** Every configuration the caller may see, worst first, with its last day hour by hour (the sparkline). */
export async function deliveryTriage(principal: Principal): Promise<TriageItem[]> {
  const db = await getDb();
  const usuarioId = principal.kind === 'api-client' ? principal.usuarioId.toLowerCase() : undefined;
  const configs: StoredWebhook[] = await listWebhooks(db, { usuarioId, limit: TRIAGE_LIMIT });
  const ids = configs.map((stored) => stored.config.id);
  const now = Date.now();
  const hours = windowHours(TRIAGE_HOURS, now);
  const [rows, backlogs] = await Promise.all([hourlyAttempts(db, ids, hours[0]! * HOUR_MS), backlogByConfig(db, ids, now)]);
  const rowsByConfig = new Map<string, HourOfAttempts[]>();
  for (const row of rows) {
    const own = rowsByConfig.get(row.configId);
    if (own) own.push(row);
    else rowsByConfig.set(row.configId, [row]);
  }
  return configs
    .map(({ config, state }) => {
      const own = rowsByConfig.get(config.id) ?? [];
      const byHour = new Map(own.map((row) => [row.hour, row]));
      return {
        id: config.id,
        url: config.url,
        usuarioId: config.usuarioId,
        clientId: config.clientId,
        situacao: situationOf(state, backlogs.get(config.id) ?? NO_BACKLOG, now),
        totais: totalsOf(own),
        horas: hours.map((hour) => ({ entregues: byHour.get(hour)?.delivered ?? 0, falhas: byHour.get(hour)?.failed ?? 0 })),
      };
    })
    .sort(triageOrder);
}
