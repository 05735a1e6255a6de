import type { Migration } from './migration';

/**
 * Delivery isolation and lifecycle (issue 18).
 * - `webhook_configs` gets its circuit breaker: consecutive outage attempts, until when it is open
 *   (then one probe), and when the current incident opened it.
 * - Claims look for each configuration's oldest due deliveries (config_id, status,
 *   next_attempt_at), which also answers what (status, next_attempt_at) did, so that one goes: every
 *   index on webhook_deliveries is paid for by each event's fan-out of inserts.
 * - Attempts in flight are counted by live lease: an index of leased rows only (partial on SQLite
 *   and PostgreSQL; Oracle leaves rows whose key is null out of an index anyway).
 * - Retention deletes events by age (created_at) and their deliveries by event (event_id).
 */
export const deliveryIsolation: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.integer('circuit_failures').notNullable().defaultTo(0);
      t.bigInteger('circuit_open_until');
      t.bigInteger('circuit_opened_at');
    });
    await db.schema.alterTable('webhook_deliveries', (t) => {
      t.index(['config_id', 'status', 'next_attempt_at'], 'webhook_deliveries_config_due_ix');
      t.dropIndex(['status', 'next_attempt_at'], 'webhook_deliveries_due_ix');
      t.index(['lease_until'], 'webhook_deliveries_lease_ix', { predicate: db.whereNotNull('lease_until') });
      t.index(['event_id'], 'webhook_deliveries_event_ix');
    });
    await db.schema.alterTable('webhook_events', (t) => {
      t.index(['created_at'], 'webhook_events_created_ix');
    });
  },
  async down(db) {
    await db.schema.alterTable('webhook_events', (t) => t.dropIndex(['created_at'], 'webhook_events_created_ix'));
    await db.schema.alterTable('webhook_deliveries', (t) => {
      t.dropIndex(['config_id', 'status', 'next_attempt_at'], 'webhook_deliveries_config_due_ix');
      t.index(['status', 'next_attempt_at'], 'webhook_deliveries_due_ix');
      t.dropIndex(['lease_until'], 'webhook_deliveries_lease_ix');
      t.dropIndex(['event_id'], 'webhook_deliveries_event_ix');
    });
    await db.schema.alterTable('webhook_configs', (t) => {
      for (const column of ['circuit_failures', 'circuit_open_until', 'circuit_opened_at']) t.dropColumn(column);
    });
  },
};
