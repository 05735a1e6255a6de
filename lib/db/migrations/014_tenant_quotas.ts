import type { Migration } from './migration';

/**
 * Tenant quotas (issue 27): events by producer and time, so the publish rate reads a producer's
 * last second through it, however many events it published before. (A configuration create locks
 * its tenant's webhook_tenants row, 011, before counting: MAX_WEBHOOKS_PER_TENANT holds across
 * instances.)
 */
export const tenantQuotas: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_events', (t) => t.index(['producer', 'created_at'], 'webhook_events_producer_ix'));
  },
  async down(db) {
    await db.schema.alterTable('webhook_events', (t) => t.dropIndex(['producer', 'created_at'], 'webhook_events_producer_ix'));
  },
};
