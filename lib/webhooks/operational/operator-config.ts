import 'server-only';
import type { Knex } from 'knex';
import { env } from '@/lib/config/env';
import { isUniqueViolation } from '@/lib/db/dialect';
import { log } from '@/lib/log';
import { WEBHOOK_EVENT_FLAGS, type WebhookEventFlag, OPERATIONAL_EVENT_TYPE_LIST } from '../events/types';
import { type WebhookConfiguration } from '../configurations/contract';
import { ensureTenantRow } from '../configurations/store/tenants';
import { addSubscriptions, removeSubscriptions } from '@/lib/webhooks/configurations/store/subscriptions';
import { closeCircuit } from '@/lib/webhooks/delivery/store';
import { findWebhook, insertWebhook, saveWebhook } from '@/lib/webhooks/configurations/store/configs';
import { operationalWebhookUrl } from './config';
import { OPERATOR_CONFIG_ID, OPERATOR_SISTEMA_ORIGEM, OPERATOR_TENANT } from '../events/operational';

/**
 * The operator's receiver of operational events (issue 31 §3), made at start from
 * OPERATIONAL_WEBHOOK_URL into an ordinary configuration of the reserved operator tenant,
 * subscribed to the operational event types: the engine signs (its own `whsec_…` secret, which
 * staff read and rotate in the console like any other), retries, circuit-breaks and logs its
 * deliveries as every partner's. The setting decides its URL at every start; staff may switch it
 * off and on, set its headers (an incident tool's API key, say) and rotate its secret. Unset, its
 * operational subscriptions are removed (no event is published), and the configuration and its log
 * are kept. Instances starting together make it once (its fixed id).
 */
export async function ensureOperatorWebhook(db: Knex, url: string | undefined = operationalWebhookUrl(env())): Promise<void> {
  if (url === undefined) {
    const removed = await removeSubscriptions(db, OPERATOR_CONFIG_ID, OPERATIONAL_EVENT_TYPE_LIST);
    if (removed > 0) log.info('webhook.operational_off', { configId: OPERATOR_CONFIG_ID });
    return;
  }
  await ensureTenantRow(db, OPERATOR_TENANT);
  const stored = await findWebhook(db, OPERATOR_CONFIG_ID);
  if (!stored) {
    try {
      await db.transaction((trx) => insertWebhook(trx, operatorConfiguration(url)));
      log.info('webhook.operational_created', { configId: OPERATOR_CONFIG_ID });
    } catch (error) {
      // Another instance made it at the same moment.
      if (!isUniqueViolation(error)) throw error;
    }
  } else if (stored.config.url !== url) {
    // Another receiver: like a URL changed through the API, it starts with a closed circuit.
    await db.transaction(async (trx) => {
      if (await saveWebhook(trx, { ...stored.config, url }, stored.version)) await closeCircuit(trx, OPERATOR_CONFIG_ID);
    });
    log.info('webhook.operational_url_changed', { configId: OPERATOR_CONFIG_ID });
  }
  await addSubscriptions(db, OPERATOR_CONFIG_ID, OPERATIONAL_EVENT_TYPE_LIST);
}

function operatorConfiguration(url: string): WebhookConfiguration {
  const flags = Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, false])) as Record<WebhookEventFlag, boolean>;
  return {
    id: OPERATOR_CONFIG_ID,
    usuarioId: OPERATOR_TENANT,
    sistemaOrigem: OPERATOR_SISTEMA_ORIGEM,
    clientId: null,
    url,
    headers: [],
    ...flags,
  };
}
