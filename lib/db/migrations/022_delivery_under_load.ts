import type { Migration } from './migration';

/**
 * Deliveries under load (issue 45): a rate-limited configuration's send pacing (pacing.ts), the
 * slot its next request may leave in, taken as the request leaves rather than at the claim; an
 * ended incident whose receiver has not yet delivered again (`configuracao.recuperada` waits for
 * that delivery); a delivery's current run of failures (since when an ordered head holds the
 * others, given up after WEBHOOK_ORDERED_HOLD_MINUTES); the probes of an open circuit that went
 * before the delivery was due (they do not use up its retry schedule); and an index that covers the
 * health and triage figures' reads of webhook_attempts.
 */
export const deliveryUnderLoad: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.double('rate_sent_tat'));
    await db.schema.alterTable('webhook_alerts', (t) => t.bigInteger('awaiting_delivery_since'));
    await db.schema.alterTable('webhook_deliveries', (t) => {
      t.bigInteger('failing_since');
      t.integer('early_probes').notNullable().defaultTo(0);
    });
    // The health and triage figures (statistics.ts, hourlyAttempts) read every attempt of a range:
    // an index that covers what they read answers them without a lookup of each attempt's row, so
    // their cost follows the attempts in the range, not the table's size. Same prefix as the index
    // it replaces (a configuration's latest attempt, its first delivered one).
    await db.schema.alterTable('webhook_attempts', (t) => {
      t.index(['config_id', 'started_at', 'error', 'duration_ms'], 'webhook_attempts_health_cover_ix');
    });
    await db.schema.alterTable('webhook_attempts', (t) => t.dropIndex(['config_id', 'started_at'], 'webhook_attempts_health_ix'));
  },
  async down(db) {
    await db.schema.alterTable('webhook_attempts', (t) => t.index(['config_id', 'started_at'], 'webhook_attempts_health_ix'));
    await db.schema.alterTable('webhook_attempts', (t) =>
      t.dropIndex(['config_id', 'started_at', 'error', 'duration_ms'], 'webhook_attempts_health_cover_ix'),
    );
    await db.schema.alterTable('webhook_deliveries', (t) => t.dropColumns('failing_since', 'early_probes'));
    await db.schema.alterTable('webhook_alerts', (t) => t.dropColumn('awaiting_delivery_since'));
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumn('rate_sent_tat'));
  },
};
