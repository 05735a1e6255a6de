import 'server-only';
import type { Knex } from 'knex';
import type { Principal } from '@/lib/auth/principal';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { log, outsideRequest, redactError } from '@/lib/log';
import { mailConfigured, sendMail } from '@/lib/mail/send-mail';
import { webhookStaff } from '@/lib/staff/service';
import type { AlertPage, PageQuery } from '../delivery/health-contract';
import { currentIncidents, type Incident } from '@/lib/webhooks/delivery/store';
import { findWebhook, visibleConfigs } from '@/lib/webhooks/configurations/store/configs';
import { alertMail } from './alert-mail';
import {
  awaitingDelivery,
  confirmDelivered,
  markAwaitingDelivery,
  markEmailed,
  openAlertPage,
  openAlerts,
  recordIncident,
  resolveEnded,
} from './store';
import type { Candidate } from '../delivery/fair-share';
import { deliveryWorker } from '../delivery/process-worker';
import { publishConfirmed, publishIncident, publishIncidentEnd } from './incidents';
import { firstDeliveredSince } from '../delivery/store';
import { tellPartner } from '../operational/partner-notice';

/**
 * Delivery alerts (issue 20 §4). Each instance looks for incidents every
 * WEBHOOK_ALERT_CHECK_SECONDS: a configuration the worker switched off, or one whose circuit has
 * stayed open WEBHOOK_ALERT_CIRCUIT_MINUTES. A new incident is recorded once across instances
 * (webhook_alerts' unique key); the instance that recorded it publishes its operational event in
 * the same transaction (issue 31 §3), e-mails the staff who look after webhooks when SMTP_URL is
 * set and, for a configuration switched off, its technical contact; the console shows it until the
 * incident ends. The instance that closes it tells the operator and the contact what the end means
 * (publishIncidentEnd): recovered only once a delivery succeeds again, which a later look confirms
 * when it had not yet.
 */
export async function checkIncidents(db: Knex, now: number): Promise<Incident[]> {
  const { WEBHOOK_ALERT_CIRCUIT_MINUTES } = env();
  // The open alerts before the look at incidents: one another instance raises after this look is
  // not judged ended by this instance's older view of the configurations.
  const open = await openAlerts(db);
  const incidents = await currentIncidents(db, now, WEBHOOK_ALERT_CIRCUIT_MINUTES * 60_000);
  const raised: Incident[] = [];
  const queued: Candidate[] = [];
  for (const incident of incidents) {
    const id = await recordIncident(
      db,
      incident,
      now,
      async (trx, alertId) => void queued.push(...(await publishIncident(trx, alertId, incident, now))),
    );
    if (!id) continue;
    raised.push(incident);
    log.warn('webhook.alert_raised', { alertId: id, configId: incident.configId, kind: incident.kind });
    wakeFor(queued.splice(0));
    if (await tellStaff(db, incident)) await markEmailed(db, id);
    if (incident.kind === 'desativada') await tellPartner(db, incident.configId, 'desativada', now);
  }
  const resolved = await resolveEnded(db, open, incidents, now, async (trx, alert) => {
    const end = await publishIncidentEnd(trx, alert, now);
    queued.push(...end.queued);
    if (end.awaiting) await markAwaitingDelivery(trx, alert.id, now);
  });
  wakeFor(queued.splice(0));
  await confirmRecoveries(db, incidents);
  for (const alert of resolved) {
    // Switched back on: the contact heard of the switch-off (a receiver down was not theirs to hear of).
    if (alert.kind === 'desativada') await tellPartner(db, alert.configId, 'religada', now);
  }
  if (resolved.length > 0) log.info('webhook.alerts_resolved', { count: resolved.length });
  return raised;
}

/**
 * Ended incidents waiting for their receiver to deliver again (issue 45): once an attempt since has
 * succeeded, `configuracao.recuperada`, by the one instance whose update finds it still waiting. Not
 * while the configuration is in a new incident.
 */
async function confirmRecoveries(db: Knex, current: readonly Incident[]): Promise<void> {
  const busy = new Set(current.map((incident) => incident.configId));
  const queued: Candidate[] = [];
  for (const alert of await awaitingDelivery(db)) {
    if (busy.has(alert.configId)) continue;
    const deliveredAt = await firstDeliveredSince(db, alert.configId, alert.awaitingSince);
    if (deliveredAt === null) continue;
    await db.transaction(async (trx) => {
      if (await confirmDelivered(trx, alert.id)) queued.push(...(await publishConfirmed(trx, alert, deliveredAt)));
    });
    log.info('webhook.receiver_confirmed', { alertId: alert.id, configId: alert.configId });
  }
  wakeFor(queued);
}

/** Operational events were queued: the worker sends them now, not at its next look. */
function wakeFor(queued: Candidate[]): void {
  if (queued.length > 0) deliveryWorker().wake(queued);
}

/** E-mails every staff member who looks after webhooks; true when at least one message went. */
async function tellStaff(db: Knex, incident: Incident): Promise<boolean> {
  if (!mailConfigured()) return false;
  const stored = await findWebhook(db, incident.configId);
  if (!stored) return false;
  const url = new URL(stored.config.url);
  const receiver = `${url.origin}${url.pathname}`;
  // SMTP_URL requires NEXTAUTH_URL (lib/config/mail.ts): the console's public address.
  const origin = env().NEXTAUTH_URL;
  if (!origin) return false;
  const link = new URL(`/webhooks/${incident.configId}`, origin).toString();
  let sent = false;
  for (const staff of await webhookStaff()) {
    sent = (await sendMail(alertMail(staff, incident, receiver, link), `webhook.alert.${incident.kind}`)) || sent;
  }
  return sent;
}

/** A page of the open alerts the caller may see (an API client: its own tenant's), worst first (openAlertPage). */
export async function alertsFor(principal: Principal, { limite, pagina }: PageQuery): Promise<AlertPage> {
  const db = await getDb();
  const usuarioId = principal.kind === 'api-client' ? principal.usuarioId.toLowerCase() : undefined;
  const { alerts, total } = await openAlertPage(db, visibleConfigs(db, usuarioId), { limit: limite, offset: (pagina - 1) * limite });
  return {
    itens: alerts.map((alert) => ({
      id: alert.id,
      configuracaoId: alert.configId,
      url: alert.url,
      usuarioId: alert.usuarioId,
      tipo: alert.kind,
      desde: new Date(alert.since).toISOString(),
    })),
    total,
    pagina,
    limite,
  };
}

const holder = globalThis as typeof globalThis & { __alertTimer?: NodeJS.Timeout };

/** Checks now and then every WEBHOOK_ALERT_CHECK_SECONDS in this process (lib/startup.ts). */
export function startAlerts(): void {
  if (holder.__alertTimer) return;
  const check = () =>
    outsideRequest(async () => checkIncidents(await getDb(), Date.now())).catch((error: unknown) =>
      log.warn('webhook.alert_check_failed', redactError(error)),
    );
  const every = env().WEBHOOK_ALERT_CHECK_SECONDS * 1000;
  holder.__alertTimer = setTimeout(function again() {
    void check().finally(() => {
      if (holder.__alertTimer) holder.__alertTimer = setTimeout(again, every).unref();
    });
  }, every).unref();
}

export function stopAlerts(): void {
  clearTimeout(holder.__alertTimer);
  holder.__alertTimer = undefined;
}
