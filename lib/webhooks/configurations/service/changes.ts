import 'server-only';
import type { Knex } from 'knex';
import { FieldRejected } from '@/lib/validation/field-rejected';
import type { WebhookConfiguration, WebhookUpdate } from '../contract';
import { isBrokerUrl } from '../broker-target';
import { encryptCredentials, type BrokerCredentials } from '../broker-credentials';
import { BROKER_SCHEMES_TEXT } from '../destinations/kinds';
import { configurationHooks } from '../hooks';
import { saveSwitch } from '../store/configs';
import type { DeliveryControls, DeliverySwitch } from '../store/rows';

/** What a PUT or POST changes, field by field: shared by update.ts and create.ts. */

/**
 * A broker target's login after a PUT or POST (encrypted; null: none). `given`: the body's
 * `credenciais` (undefined keeps the stored ones, as long as they still belong to the target:
 * `current` is null once the broker changed). An https receiver has none: credentials sent for
 * one are refused (400 naming the field), and stored ones go when a target becomes https.
 */
export function credentialsAfter(
  configId: string,
  current: string | null,
  given: BrokerCredentials | null | undefined,
  url: string,
): string | null {
  if (!isBrokerUrl(url)) {
    if (given) throw new FieldRejected('credenciais', 'brokerOnly', `credenciais are only for a broker target (${BROKER_SCHEMES_TEXT}).`);
    return null;
  }
  if (given === undefined) return current;
  return given === null ? null : encryptCredentials(configId, given);
}

/** The controls after a PUT or POST: fields present replace stored ones. */
export function controlsAfter(
  current: DeliveryControls,
  input: Pick<WebhookUpdate, 'limiteEntregasPorSegundo' | 'entregaOrdenada'>,
): DeliveryControls {
  return {
    ratePerSecond: input.limiteEntregasPorSegundo === undefined ? current.ratePerSecond : input.limiteEntregasPorSegundo,
    ordered: input.entregaOrdenada ?? current.ordered,
  };
}

export function auditControls(controls: DeliveryControls) {
  return { limiteEntregasPorSegundo: controls.ratePerSecond, entregaOrdenada: controls.ordered };
}

/** Switches deliveries on or off by hand; switched back on, the delivery engine restarts the receiver's state (switchedOn). */
export async function switchDeliveries(trx: Knex.Transaction, id: string, enabled: boolean): Promise<DeliverySwitch> {
  const now = Date.now();
  await saveSwitch(trx, id, enabled, enabled ? null : 'manual', now);
  if (enabled) await configurationHooks().switchedOn(trx, id);
  return enabled ? { enabled, disabledReason: null, disabledAt: null } : { enabled, disabledReason: 'manual', disabledAt: now };
}

export function definedOnly(
  update: Omit<
    WebhookUpdate,
    'ativo' | 'limiteEntregasPorSegundo' | 'entregaOrdenada' | 'emailContato' | 'credenciais' | 'filtro' | 'campos' | 'transformacao'
  >,
): Partial<WebhookConfiguration> {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
}

/** RFC 9110 If-Match: a list of entity tags or `*`; weak tags never match for a write. */
export function etagMatches(ifMatch: string, etag: string): boolean {
  const candidates = ifMatch.split(',').map((tag) => tag.trim());
  return candidates.includes('*') || candidates.includes(etag);
}
