import { EVENT_TYPE_OF_FLAG, TEST_EVENT_TYPE } from '../delivery-contract';
import type { WebhookEventFlag } from '../contract';
import type { WebhookMessage } from '../message-contract';
import type { EventRow } from './store';

/**
 * The message a receiver gets for an event (Standard Webhooks): `{type, timestamp, data}`, `data`
 * holding the producer's idEvento (ours when it sent none), the tenant's usuarioId and the
 * producer's `dados`. Built the same for every attempt, so the signed body never changes.
 */
export const USER_AGENT = 'IntegrationConsole-Webhooks/1.0';

/** Headers the delivery sets; a configuration's custom headers never replace them. */
export const OWN_HEADERS = ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'user-agent'] as const;

export function eventType(tipo: string): string {
  return tipo === TEST_EVENT_TYPE ? TEST_EVENT_TYPE : (EVENT_TYPE_OF_FLAG[tipo as WebhookEventFlag] ?? tipo);
}

/** The signed body: a WebhookMessage, the shape the OpenAPI document's `webhooks` section publishes (message-contract.ts). */
export function messageBody(event: EventRow): string {
  const message: WebhookMessage = {
    type: eventType(event.tipo),
    timestamp: new Date(event.createdAt).toISOString(),
    data: { ...event.dados, idEvento: event.idEvento ?? event.id, usuarioId: event.usuarioId },
  };
  return JSON.stringify(message);
}
