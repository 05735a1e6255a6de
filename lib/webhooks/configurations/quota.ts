import 'server-only';
import type { Knex } from 'knex';
import { env } from '@/lib/config/env';
import { refuse } from '@/lib/errors/refusal';
import { log } from '@/lib/log';
import { countTenantWebhooks } from './store/configs';
import { lockTenantRow } from './store/tenants';

/**
 * Configurations per tenant (issue 27): counted under the tenant's row lock, exact across
 * instances. The publish and test-event quotas are the delivery engine's (delivery/quotas.ts).
 */
export const CONFIGURATION_QUOTA_PROBLEM = 'webhook-configuration-quota';

/**
 * A create for a tenant that already has MAX_WEBHOOKS_PER_TENANT configurations is refused
 * (409: the collection is full, and only deleting one makes room). Staff creating for a tenant
 * count against it too: the limit is the tenant's, whoever asks.
 */
export async function assertConfigurationRoom(trx: Knex.Transaction, usuarioId: string): Promise<void> {
  const limit = env().MAX_WEBHOOKS_PER_TENANT;
  // Creates for one tenant on several instances count one after the other (the caller made the row: ensureTenantRow).
  await lockTenantRow(trx, usuarioId);
  const count = await countTenantWebhooks(trx, usuarioId);
  if (count < limit) return;
  log.info('webhook.quota_exceeded', { quota: CONFIGURATION_QUOTA_PROBLEM, limit });
  throw refuse.overQuota(
    CONFIGURATION_QUOTA_PROBLEM,
    `This tenant has ${count} webhook configurations and may have at most ${limit} (MAX_WEBHOOKS_PER_TENANT); delete one before creating another.`,
    { limite: limit },
  );
}
