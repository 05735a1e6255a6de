import 'server-only';
import { getDb } from '@/lib/db/handle';
import type { Principal } from '@/lib/auth/principal';
import { WINDOW_HOURS, type DeliveryHealth, type HealthState, type HealthWindow } from './health-contract';
import { type StoredWebhook } from '@/lib/webhooks/configurations/store/rows';
import { getWebhook } from '../configurations/service/access';
import { phaseOf } from './circuit';
import {
  backlogByConfig,
  countFiltered,
  findReceiverState,
  hourlyAttempts,
  HOUR_MS,
  type Backlog,
  type HourOfAttempts,
  type ReceiverState,
} from './store';

/**
 * Delivery health (issue 20 §3): each configuration's attempts hour by hour from the delivery log,
 * its state and its backlog, for the chart on its page and the staff's triage list (alerts/triage.ts).
 */
export { HOUR_MS };
export const NO_BACKLOG: Backlog = { due: 0, oldestDueAt: null };

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The whole hours of a window ending with the current one, oldest first, as hours since the epoch. */
export function windowHours(hours: number, now: number): number[] {
  const current = Math.floor(now / HOUR_MS);
  return Array.from({ length: hours }, (_, i) => current - hours + 1 + i);
}

export function totalsOf(hours: readonly Pick<HourOfAttempts, 'delivered' | 'failed'>[]) {
  const entregues = hours.reduce((sum, hour) => sum + hour.delivered, 0);
  const falhas = hours.reduce((sum, hour) => sum + hour.failed, 0);
  return { entregues, falhas, taxaSucesso: entregues + falhas === 0 ? null : entregues / (entregues + falhas) };
}

function stateOf(
  state: StoredWebhook['state'],
  receiver: ReceiverState,
  now: number,
): { estado: HealthState; desde: number | null; ate: number | null; motivo: string | null } {
  if (!state.enabled) return { estado: 'desativada', desde: state.disabledAt, ate: null, motivo: state.disabledReason };
  if (phaseOf(receiver.circuit, now) === 'open') {
    return { estado: 'circuito-aberto', desde: receiver.circuit.openedAt, ate: receiver.circuit.openUntil, motivo: null };
  }
  if (receiver.failingSince !== null) return { estado: 'falhando', desde: receiver.failingSince, ate: null, motivo: null };
  return { estado: 'saudavel', desde: null, ate: null, motivo: null };
}

/** A backlog held back by the configuration's rate limit, or by a pause its receiver asked for. */
function heldBackBy({ controls }: Pick<StoredWebhook, 'controls'>, receiver: ReceiverState, backlog: Backlog, now: number) {
  if (receiver.pausedUntil !== null && receiver.pausedUntil > now) return 'pausa-do-receptor' as const;
  return controls.ratePerSecond !== null && backlog.due > 0 ? ('limite-de-taxa' as const) : null;
}

export function situationOf(stored: Pick<StoredWebhook, 'state' | 'controls'>, receiver: ReceiverState, backlog: Backlog, now: number) {
  const { estado, desde, ate, motivo } = stateOf(stored.state, receiver, now);
  return {
    estado,
    desde: iso(desde),
    ate: iso(ate),
    motivo,
    devidas: backlog.due,
    maisAntigaDevidaDesde: iso(backlog.oldestDueAt),
    aguardandoNovaTentativa: backlog.waiting ?? 0,
    retidaPor: heldBackBy(stored, receiver, backlog, now),
  };
}

/** One configuration's health over the window: a 404 for another tenant's, as everywhere. */
export async function deliveryHealth(principal: Principal, id: string, window: HealthWindow): Promise<DeliveryHealth> {
  const stored = await getWebhook(principal, id);
  const now = Date.now();
  const hours = windowHours(WINDOW_HOURS[window], now);
  const db = await getDb();
  const since = hours[0]! * HOUR_MS;
  const [rows, backlogs, filtradas, receiver] = await Promise.all([
    hourlyAttempts(db, [id], since),
    backlogByConfig(db, [id], now),
    countFiltered(db, id, since),
    findReceiverState(db, id),
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
    situacao: situationOf(stored, receiver, backlogs.get(id) ?? NO_BACKLOG, now),
  };
}
