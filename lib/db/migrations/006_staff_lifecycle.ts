import type { Migration } from './migration';

/**
 * Staff accounts managed in the console (issue 11 §1): disabling, and the one-time link that sets
 * a password (its SHA-256 only, and when it expires). A user created without a password has the
 * unusable hash `!` until the link is used.
 */
export const staffLifecycle: Migration = {
  async up(db) {
    await db.schema.alterTable('staff_users', (t) => {
      t.bigInteger('disabled_at');
      t.string('password_token_hash', 64);
      t.bigInteger('password_token_expires');
    });
  },
  async down(db) {
    await db.schema.alterTable('staff_users', (t) => {
      for (const column of ['disabled_at', 'password_token_hash', 'password_token_expires']) t.dropColumn(column);
    });
  },
};
