import type { Migration } from './migration';

/**
 * Operational notifications (issue 31 §3): a configuration's technical contact, e-mailed when the
 * worker switches it off and when it is back. Nothing else is stored: the operator's receiver is an
 * ordinary configuration, its operational subscriptions are webhook_subscriptions rows.
 */
export const operationalNotifications: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.string('contact_email', 254));
  },
  async down(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumn('contact_email'));
  },
};
