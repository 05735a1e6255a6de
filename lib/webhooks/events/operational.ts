/**
 * Operational notifications (issue 31 §3): what the delivery engine tells the operator's own
 * receiver about partners' configurations. The operator's receiver is an ordinary configuration
 * (OPERATIONAL_WEBHOOK_URL, materialized at start by operational/operator-config.ts) of a reserved tenant, so the
 * same engine signs, retries, circuit-breaks and logs its deliveries. No zod, no server imports: the
 * console's list imports the reserved ids.
 */

/**
 * The reserved tenant (the nil UUID: no platform mints it) whose one configuration is the
 * operator's receiver. Ids stay RFC 9562 UUIDs (the nil one, a version 4): the answers' published
 * schema checks their form.
 */
export const OPERATOR_TENANT = '00000000-0000-0000-0000-000000000000';
/** The operator's configuration: a fixed id, so instances starting together create it once (its primary key). */
export const OPERATOR_CONFIG_ID = '00000000-0000-4000-8000-000000000001';
/** Its sistemaOrigem: none of the platform's. */
export const OPERATOR_SISTEMA_ORIGEM = 0;
/** What `webhook_events.producer` says of the events the engine publishes itself. */
export const OPERATIONAL_PRODUCER = 'sistema:operacional';

/**
 * The operational event types, as the operator's receiver sees them (and as stored: webhook_events.tipo
 * and webhook_subscriptions.event_type). Incidents are the alerts' (lib/webhooks/alerts): switched
 * off by the worker, circuit open past WEBHOOK_ALERT_CIRCUIT_MINUTES; switched back on (the
 * receiver not yet confirmed); and recovered, only once a delivery to it succeeds again (issue 45).
 * A delivery that will not be attempted again is its own.
 */
export const OPERATIONAL_EVENT_TYPES = {
  disabled: 'configuracao.desativada',
  circuitOpen: 'circuito.aberto',
  switchedOn: 'configuracao.religada',
  recovered: 'configuracao.recuperada',
  exhausted: 'entrega.esgotada',
} as const;

export type OperationalEventType = (typeof OPERATIONAL_EVENT_TYPES)[keyof typeof OPERATIONAL_EVENT_TYPES];

/**
 * What an operational event names a receiver by: its origin only. A path or query may carry the
 * partner's token (Slack-style URLs do), and the operator's receiver is often a third party's
 * incident tool; the configuration's id leads to the rest in the console.
 */
export function receiverOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
