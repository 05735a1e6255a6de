import type { Migration } from './migration';

/**
 * Hourly roll-ups of the delivery log (issue 45 §6): each configuration's attempts per whole hour
 * (delivered, failed, summed duration), so the delivery health and the staff triage read a row per
 * hour instead of every attempt, however busy the history. `webhook_rollup_marks` holds how far
 * the roll-up has gone (hours before `rolled_until` are in webhook_attempt_hours; null until the
 * first pass), one row taken under a lock by the instance rolling up.
 */
export const attemptRollups: Migration = {
  async up(db) {
    await db.schema.createTable('webhook_attempt_hours', (t) => {
      t.string('config_id', 36).notNullable();
      // Whole hours since the epoch (an attempt's started_at / 3,600,000, rounded down).
      t.bigInteger('hour_no').notNullable();
      t.integer('delivered').notNullable();
      t.integer('failed').notNullable();
      t.bigInteger('duration_ms').notNullable();
      t.primary(['config_id', 'hour_no']);
      // Retention deletes by age across configurations.
      t.index(['hour_no'], 'webhook_attempt_hours_hour_ix');
    });
    await db.schema.createTable('webhook_rollup_marks', (t) => {
      t.string('name', 40).primary();
      t.bigInteger('rolled_until');
    });
    await db('webhook_rollup_marks').insert({ name: 'webhook_attempt_hours', rolled_until: null });
  },
  async down(db) {
    await db.schema.dropTableIfExists('webhook_rollup_marks');
    await db.schema.dropTableIfExists('webhook_attempt_hours');
  },
};
