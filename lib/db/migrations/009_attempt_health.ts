import type { Migration } from './migration';

/**
 * Delivery health (issue 20): the console charts each configuration's attempts hour by hour, so
 * an attempt names its configuration (copied from its delivery, which never changes it) and is
 * indexed by configuration and time. One index: each attempt's insert pays for it.
 */
export const attemptHealth: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_attempts', (t) => t.string('config_id', 36));
    await db('webhook_attempts').update({
      config_id: db('webhook_deliveries')
        .select('config_id')
        .whereRaw('?? = ??', ['webhook_deliveries.id', 'webhook_attempts.delivery_id']),
    });
    await db.schema.alterTable('webhook_attempts', (t) => t.index(['config_id', 'started_at'], 'webhook_attempts_health_ix'));
  },
  async down(db) {
    await db.schema.alterTable('webhook_attempts', (t) => {
      t.dropIndex(['config_id', 'started_at'], 'webhook_attempts_health_ix');
      t.dropColumn('config_id');
    });
  },
};
