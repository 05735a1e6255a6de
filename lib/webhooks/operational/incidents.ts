import 'server-only';
import type { Knex } from 'knex';
import type { StoredAlert } from '../alerts/store';
import type { Candidate } from '../delivery/fair-share';
import { lastAttemptOf, publishOperational } from '../delivery/store';
import { findWebhook, type Incident, type StoredWebhook } from '@/lib/webhooks/store';
import { OPERATIONAL_EVENT_TYPES, OPERATOR_TENANT, receiverOrigin } from './names';

/**
 * An incident's operational events (issue 31 §3), written in the transaction of its alert row
 * (lib/webhooks/alerts/store.ts), so the instance that records or closes the incident, and only it,
 * publishes: `configuracao.desativada` or `circuito.aberto` when it begins, `configuracao.recuperada`
 * when it ends. Nothing about the operator's own configuration: it would be told through the
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
    { ...common, motivo: last?.error ?? null, ultimoStatus: last?.status ?? null, falhasSeguidas: stored.state.circuit.failures },
    now,
  );
}

export async function publishRecovery(trx: Knex.Transaction, alert: StoredAlert, now: number): Promise<Candidate[]> {
  const stored = await findWebhook(trx, alert.configId);
  if (!aboutPartner(stored)) return [];
  const tipo = OPERATIONAL_EVENT_TYPES.recovered;
  return publishOperational(
    trx,
    tipo,
    `${tipo}:${alert.id}`,
    { incidenteId: alert.id, configuracao: configuration(stored), incidente: alert.kind, desde: iso(alert.since), recuperadaEm: iso(now) },
    now,
  );
}
