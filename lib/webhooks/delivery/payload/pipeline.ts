import 'server-only';
import type { WebhookMessage } from '../../events/messages';
import { NO_PAYLOAD_CONTROL, type PayloadControl } from '../../payload-control/contract';
import { minimise } from '../../payload-control/fields';
import { matchesFilter } from '../../payload-control/filter';
import { transform } from './transform';

/**
 * Payload control in the one order every destination kind gets (issue 46 §4): the filter when an
 * event is published (filtered: its delivery is recorded `filtrada`, never queued), then, for each
 * attempt, minimise → transform, and the result is what is signed and sent (delivery/attempt.ts).
 */

/** Whether a configuration with this control gets the message at all. */
export function passesFilter(control: PayloadControl, message: WebhookMessage): boolean {
  return matchesFilter(control.filter, message);
}

export type Shaped =
  { outcome: 'send'; body: string; headers: Record<string, string> } | { outcome: 'cancelled' } | { outcome: 'failed'; reason: string };

/**
 * The body to sign and send, and the headers a transformation adds. `owner` keys the compiled code
 * (the configuration's id): no two configurations share an engine.
 */
export async function shapeMessage(
  owner: string,
  message: WebhookMessage,
  control: PayloadControl,
  customHeaders: readonly { chave: string; valor: string }[],
): Promise<Shaped> {
  if (control === NO_PAYLOAD_CONTROL) return { outcome: 'send', body: JSON.stringify(message), headers: {} };
  const minimised = minimise(message, control.fields);
  if (control.transform === null) return { outcome: 'send', body: JSON.stringify(minimised), headers: {} };
  const headers = Object.fromEntries(customHeaders.map(({ chave, valor }) => [chave, valor]));
  const result = await transform(owner, control.transform, { type: message.type, payload: minimised, headers });
  if (result.outcome !== 'sent') return result;
  return { outcome: 'send', body: JSON.stringify(result.payload), headers: result.headers };
}
