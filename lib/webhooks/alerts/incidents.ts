import 'server-only';
import type { Knex } from 'knex';
import type { StoredAlert } from './store';
import type { Candidate } from '../delivery/fair-share';
import {
  findReceiverState,
  firstDeliveredSince,
  lastAttemptOf,
  publishOperational,
  skippedDeliveries,
  type Incident,
} from '../delivery/store';
import { findWebhook } from '@/lib/webhooks/configurations/store/configs';
import { type StoredWebhook } from '@/lib/webhooks/configurations/store/rows';
import { OPERATIONAL_EVENT_TYPES, OPERATOR_TENANT, receiverOrigin } from '../events/operational';

/**
 * An incident's operational events (issue 31 §3), written in the transaction of its alert row
 * (lib/webhooks/alerts/store.ts), so the instance that records or closes the incident, and only it,
 * publishes: `configuracao.desativada` or `circuito.aberto` when it begins, and what its end means
 * (publishIncidentEnd). Nothing about the operator's own configuration: it would be told through the
 * receiver that is failing (staff still get the alert e-mail). Answers the configurations that got
 * a pending delivery, for the worker to wake once the transaction is committed.
 */
const iso = (ms: number) => new Date(ms).toISOString();

function aboutPartner(stored: StoredWebhook | undefined): stored is StoredWebhook {
  return stored !== undefined && stored.config.usuarioId !== OPERATOR_TENANT;
}

function configuration(stored: StoredWebhook) {
  return { id: stored.config.id, usuarioId: stored.config.usuarioId, destino: receiverOrigin(stored.config.url) };
}

export async function publishIncident(trx: Knex.Transaction, alertId: string, incident: Incident, now: number): Promise<Candidate[]> {
  const stored = await findWebhook(trx, incident.configId);
  if (!aboutPartner(stored)) return [];
  const common = { incidenteId: alertId, configuracao: configuration(stored), desde: iso(incident.since) };
  if (incident.kind === 'desativada') {
    const motivo = stored.state.disabledReason;
    // Switched on (or off by hand) since the look that found the incident: nothing to tell.
    if (stored.state.enabled || (motivo !== 'receptor-410' && motivo !== 'falhas-consecutivas')) return [];
    const tipo = OPERATIONAL_EVENT_TYPES.disabled;
    return publishOperational(trx, tipo, `${tipo}:${alertId}`, { ...common, motivo }, now);
  }
  const last = await lastAttemptOf(trx, incident.configId);
  const tipo = OPERATIONAL_EVENT_TYPES.circuitOpen;
  return publishOperational(
    trx,
    tipo,
    `${tipo}:${alertId}`,
    {
      ...common,
      motivo: last?.error ?? null,
      ultimoStatus: last?.status ?? null,
      falhasSeguidas: (await findReceiverState(trx, incident.configId)).circuit.failures,
    },
    now,
  );
}

/**
 * What an incident's end means (issue 45), told in the transaction that closes its alert:
 * - a delivery to the receiver succeeded since it began: `configuracao.recuperada` now;
 * - an open circuit that ended in a switch-off: nothing (`configuracao.desativada` tells of it);
 * - switched back on: `configuracao.religada`, saying the receiver is not confirmed yet and what was
 *   skipped meanwhile; then, as for a circuit closed by an answer that was no success, the alert
 *   waits (`awaiting`) for the first delivery that succeeds, and `configuracao.recuperada` follows
 *   it (publishConfirmed).
 */
export async function publishIncidentEnd(
  trx: Knex.Transaction,
  alert: StoredAlert,
  now: number,
): Promise<{ queued: Candidate[]; awaiting: boolean }> {
  const stored = await findWebhook(trx, alert.configId);
  if (!aboutPartner(stored)) return { queued: [], awaiting: false };
  const deliveredAt = await firstDeliveredSince(trx, alert.configId, alert.since);
  if (deliveredAt !== null) return { queued: await publishRecovered(trx, alert, stored, deliveredAt), awaiting: false };
  if (!stored.state.enabled) return { queued: [], awaiting: false };
  if (alert.kind !== 'desativada') return { queued: [], awaiting: true };
  const skipped = await skippedDeliveries(trx, alert.configId);
  const tipo = OPERATIONAL_EVENT_TYPES.switchedOn;
  const queued = await publishOperational(
    trx,
    tipo,
    `${tipo}:${alert.id}`,
    {
      incidenteId: alert.id,
      configuracao: configuration(stored),
      desde: iso(alert.since),
      religadaEm: iso(now),
      receptorConfirmado: false,
      ignoradas: skipped.count,
      recuperacao: skipped.oldest === null ? null : { desde: iso(skipped.oldest) },
    },
    now,
  );
  return { queued, awaiting: true };
}

/** `configuracao.recuperada` for an ended incident whose receiver has now delivered (at `deliveredAt`). */
export async function publishConfirmed(trx: Knex.Transaction, alert: StoredAlert, deliveredAt: number): Promise<Candidate[]> {
  const stored = await findWebhook(trx, alert.configId);
  return aboutPartner(stored) ? publishRecovered(trx, alert, stored, deliveredAt) : [];
}

function publishRecovered(trx: Knex.Transaction, alert: StoredAlert, stored: StoredWebhook, deliveredAt: number): Promise<Candidate[]> {
  const tipo = OPERATIONAL_EVENT_TYPES.recovered;
  return publishOperational(
    trx,
    tipo,
    `${tipo}:${alert.id}`,
    {
      incidenteId: alert.id,
      configuracao: configuration(stored),
      incidente: alert.kind,
      desde: iso(alert.since),
      recuperadaEm: iso(deliveredAt),
    },
    deliveredAt,
  );
}
