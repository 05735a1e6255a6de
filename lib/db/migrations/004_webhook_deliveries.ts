import type { Migration } from './migration';

/**
 * Webhook deliveries (issue 10).
 * - `webhook_configs` gets its signing secret (encrypted; the previous one during a rotation's
 *   overlap), an enabled flag with the reason and time it was switched off, and `failing_since`
 *   (first failed attempt since the last success) for the automatic disable. Existing rows get
 *   their secret when the app opens the database (lib/webhooks/secrets.ts): encrypting needs the
 *   app's key, which migrations do not hold.
 * - `api_clients.scopes`: the OAuth scopes a client may request (space-separated).
 * - `webhook_events`: what a producer published; (producer, id_evento) makes a resend idempotent.
 * - `webhook_deliveries`: one per event and configuration, with its state machine, the lease of the
 *   instance sending it, and the last answer; `webhook_attempts`: every attempt.
 */
export const webhookDeliveries: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.string('secret_enc', 300);
      t.string('previous_secret_enc', 300);
      t.bigInteger('previous_secret_until');
      t.boolean('enabled').notNullable().defaultTo(true);
      t.string('disabled_reason', 40);
      t.bigInteger('disabled_at');
      t.bigInteger('failing_since');
    });
    await db.schema.alterTable('api_clients', (t) => {
      t.string('scopes', 500).notNullable().defaultTo('webhooks scheduling');
    });
    await db.schema.createTable('webhook_events', (t) => {
      t.string('id', 40).primary();
      t.string('producer', 200).notNullable();
      t.string('id_evento', 100);
      t.string('tipo', 60).notNullable();
      t.string('usuario_id', 36).notNullable();
      t.text('dados_json').notNullable();
      t.bigInteger('created_at').notNullable();
      t.unique(['producer', 'id_evento'], { indexName: 'webhook_events_producer_uq' });
    });
    await db.schema.createTable('webhook_deliveries', (t) => {
      t.string('id', 40).primary();
      t.string('event_id', 40).notNullable();
      t.string('config_id', 36).notNullable();
      t.string('status', 12).notNullable();
      t.integer('attempts').notNullable();
      t.bigInteger('created_at').notNullable();
      t.bigInteger('next_attempt_at');
      t.string('lease_owner', 64);
      t.bigInteger('lease_until');
      t.bigInteger('last_attempt_at');
      t.integer('last_status');
      t.integer('last_duration_ms');
      t.string('last_body', 1024);
      t.string('last_error', 40);
      t.index(['status', 'next_attempt_at'], 'webhook_deliveries_due_ix');
      t.index(['config_id', 'created_at'], 'webhook_deliveries_config_ix');
    });
    await db.schema.createTable('webhook_attempts', (t) => {
      t.string('id', 40).primary();
      t.string('delivery_id', 40).notNullable().index('webhook_attempts_delivery_ix');
      t.integer('attempt_no').notNullable();
      t.bigInteger('started_at').notNullable();
      t.integer('duration_ms').notNullable();
      t.integer('status');
      t.string('body_excerpt', 1024);
      t.string('error', 40);
      t.text('request_headers_json').notNullable();
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('webhook_attempts');
    await db.schema.dropTableIfExists('webhook_deliveries');
    await db.schema.dropTableIfExists('webhook_events');
    await db.schema.alterTable('api_clients', (t) => t.dropColumn('scopes'));
    await db.schema.alterTable('webhook_configs', (t) => {
      for (const column of [
        'secret_enc',
        'previous_secret_enc',
        'previous_secret_until',
        'enabled',
        'disabled_reason',
        'disabled_at',
        'failing_since',
      ]) {
        t.dropColumn(column);
      }
    });
  },
};
