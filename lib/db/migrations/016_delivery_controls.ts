import type { Migration } from './migration';

/**
 * Delivery controls (issue 31): a configuration's rate limit (attempts a second, and its pacing's
 * theoretical arrival time, pacing.ts), ordered delivery, and a pause its receiver asked for (a 429
 * or 503 with Retry-After). Ordered delivery reads a configuration's oldest pending delivery
 * through (config_id, status, created_at).
 */
export const deliveryControls: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.integer('rate_limit_per_second');
      t.double('rate_tat');
      t.boolean('ordered').notNullable().defaultTo(false);
      t.bigInteger('paused_until');
    });
    await db.schema.alterTable('webhook_deliveries', (t) =>
      t.index(['config_id', 'status', 'created_at'], 'webhook_deliveries_config_order_ix'),
    );
  },
  async down(db) {
    await db.schema.alterTable('webhook_deliveries', (t) =>
      t.dropIndex(['config_id', 'status', 'created_at'], 'webhook_deliveries_config_order_ix'),
    );
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumns('rate_limit_per_second', 'rate_tat', 'ordered', 'paused_until'));
  },
};
