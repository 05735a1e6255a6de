import 'server-only';
import { toBoolean, toNumber, type DbRow } from '@/lib/db/dialect';
import type { WebhookConfiguration, WebhookHeader } from '../contract';
import { EVENT_TYPE_OF_FLAG, WEBHOOK_EVENT_FLAGS, type WebhookEventFlag } from '../../events/types';
import type { PayloadControl } from '../../payload-control/contract';
import { payloadControlFromRow } from '../../payload-control/store';

/** A configuration as stored (webhook_configs and its subscriptions), and its row's columns. */

/**
 * Whether deliveries go out, and if not, why and since when (issue 10 §3): the configuration's
 * switch (`ativo`), flipped by its owner or staff, and by the delivery worker on a 410 or after
 * failing too long (through its own store). The receiver's runtime state (circuit, failing since,
 * paused until) is the delivery engine's: lib/webhooks/delivery/store/receivers.ts.
 */
export type DeliverySwitch = {
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: number | null;
};

/**
 * How deliveries to a configuration go (issue 31): at most `ratePerSecond` attempts a second, across
 * every instance (null: no limit), and `ordered`, one at a time in publication order.
 */
export type DeliveryControls = { ratePerSecond: number | null; ordered: boolean };
export const NO_CONTROLS: DeliveryControls = { ratePerSecond: null, ordered: false };

export type StoredWebhook = {
  config: WebhookConfiguration;
  version: number;
  state: DeliverySwitch;
  controls: DeliveryControls;
  /** The partner's technical contact, e-mailed when the worker switches deliveries off and when they are back (issue 31 §3). */
  contactEmail: string | null;
  /** Whether its owner confirmed the contact from the link e-mailed to it (issue 43): only then is it told anything. */
  contactConfirmed: boolean;
  /** A broker target's login, encrypted (broker-credentials.ts); null: none. */
  brokerCredentialsEnc: string | null;
  /** Its content filter, field rules and transformation (issue 46, payload-control/). */
  payload: PayloadControl;
};

const optionalNumber = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));

export function fromRow(row: DbRow, events: ReadonlySet<string>): StoredWebhook {
  const flags = Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, events.has(EVENT_TYPE_OF_FLAG[flag])])) as Record<
    WebhookEventFlag,
    boolean
  >;
  return {
    version: toNumber(row.version),
    controls: { ratePerSecond: optionalNumber(row.rate_limit_per_second), ordered: toBoolean(row.ordered ?? false) },
    contactEmail: typeof row.contact_email === 'string' ? row.contact_email : null,
    contactConfirmed: typeof row.contact_email === 'string' && optionalNumber(row.contact_confirmed_at) !== null,
    brokerCredentialsEnc: typeof row.broker_credentials_enc === 'string' ? row.broker_credentials_enc : null,
    payload: payloadControlFromRow(row),
    state: {
      enabled: toBoolean(row.enabled),
      disabledReason: typeof row.disabled_reason === 'string' ? row.disabled_reason : null,
      disabledAt: optionalNumber(row.disabled_at),
    },
    config: {
      id: String(row.id),
      usuarioId: String(row.usuario_id),
      sistemaOrigem: toNumber(row.sistema_origem),
      url: String(row.url),
      clientId: typeof row.client_id === 'string' ? row.client_id : null,
      headers: JSON.parse(String(row.headers_json)) as WebhookHeader[],
      ...flags,
    },
  };
}

/** The columns a configuration is stored in. */
export function toRow(config: WebhookConfiguration, version: number) {
  return {
    id: config.id,
    usuario_id: config.usuarioId,
    sistema_origem: config.sistemaOrigem,
    client_id: config.clientId,
    url: config.url,
    headers_json: JSON.stringify(config.headers),
    version,
    updated_at: Date.now(),
  };
}

export function controlsRow(controls: DeliveryControls) {
  return { rate_limit_per_second: controls.ratePerSecond, ordered: controls.ordered };
}
