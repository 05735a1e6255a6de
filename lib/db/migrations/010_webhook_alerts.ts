import type { Migration } from './migration';

/**
 * Delivery alerts (issue 20 §4): one row per incident — a configuration switched off by the
 * worker, or its circuit open too long — keyed by when the incident began, so every instance that
 * notices it inserts the same key and only one succeeds: staff are told once per incident.
 */
export const webhookAlerts: Migration = {
  async up(db) {
    await db.schema.createTable('webhook_alerts', (t) => {
      t.string('id', 40).primary();
      t.string('config_id', 36).notNullable();
      t.string('kind', 20).notNullable();
      t.bigInteger('incident_at').notNullable();
      t.bigInteger('created_at').notNullable();
      t.integer('emailed').notNullable().defaultTo(0);
      t.bigInteger('resolved_at');
      t.unique(['config_id', 'kind', 'incident_at'], { indexName: 'webhook_alerts_incident_uq' });
      t.index(['resolved_at'], 'webhook_alerts_open_ix');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('webhook_alerts');
  },
};
