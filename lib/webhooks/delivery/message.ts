import { maskSecret } from '@/lib/audit/masking';
import { looksSecret } from '../configurations/header-policy';
import type { WebhookMessage } from '../events/messages';
import type { OutgoingMessage } from './destinations/destination';
import { signatureHeader } from './signature';
import type { EventRow } from './store/rows';

/**
 * The message a receiver gets for an event (Standard Webhooks): `{type, timestamp, data}`, `data`
 * holding the producer's idEvento (ours when it sent none), the tenant's usuarioId and the
 * producer's `dados`. Built the same for every attempt, so the signed body never changes.
 */
export const USER_AGENT = 'IntegrationConsole-Webhooks/1.0';

/** Headers the delivery sets; a configuration's custom headers never replace them. */
export const OWN_HEADERS = ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'user-agent'] as const;

/** The message: a WebhookMessage, the shape the OpenAPI document's `webhooks` section publishes (events/messages.ts). */
export function messageOf(event: EventRow): WebhookMessage {
  return {
    type: event.tipo,
    timestamp: new Date(event.createdAt).toISOString(),
    data: { ...event.dados, idEvento: event.idEvento ?? event.id, usuarioId: event.usuarioId },
  };
}

/** The signed body where no payload control shapes it (payload/pipeline.ts). */
export function messageBody(event: EventRow): string {
  return JSON.stringify(messageOf(event));
}

/**
 * One attempt's message, signed now (Standard Webhooks: the timestamp is the attempt's): the same
 * headers whatever the destination kind. Custom headers never replace the delivery's own.
 */
export function outgoingMessage(
  deliveryId: string,
  event: EventRow,
  customHeaders: readonly { chave: string; valor: string }[],
  secrets: readonly string[],
  now: number,
  /** The body as payload control shaped it, and the headers its transformation adds (custom headers' rules). */
  shaped?: { body: string; headers: Record<string, string> },
): OutgoingMessage {
  const body = shaped?.body ?? messageBody(event);
  const added = Object.entries(shaped?.headers ?? {}).map(([chave, valor]) => ({ chave, valor }));
  const timestamp = Math.floor(now / 1000);
  return {
    id: deliveryId,
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': deliveryId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(deliveryId, timestamp, body, secrets),
      'user-agent': USER_AGENT,
    },
    customHeaders: [...customHeaders, ...added].filter(({ chave }) => !(OWN_HEADERS as readonly string[]).includes(chave.toLowerCase())),
  };
}

/**
 * What was sent, for the delivery log: the signature and the values of credential-like headers
 * masked, by the rule the editor masks by (a value is hidden in the log where it is hidden in the form).
 */
export function loggedHeaders(message: OutgoingMessage): Record<string, string> {
  const logged: Record<string, string> = {
    ...message.headers,
    'webhook-signature': maskSecret(message.headers['webhook-signature'] ?? ''),
  };
  for (const { chave, valor } of message.customHeaders) logged[chave] = looksSecret(chave) ? maskSecret(valor) : valor;
  return logged;
}
