import type { Migration } from './migration';

/**
 * Staff session versions (issue 27 §7): every console session carries the version its account had
 * when it was signed in (lib/auth/staff-session.ts), and is refused once the account's differs. A
 * password change or reset, disabling, or linking to single sign-on bumps it: every other session
 * ends at its next request. Existing accounts start at 0, as sessions without the claim count.
 */
export const staffSessionVersion: Migration = {
  async up(db) {
    await db.schema.alterTable('staff_users', (t) => {
      t.integer('session_version').notNullable().defaultTo(0);
    });
  },
  async down(db) {
    await db.schema.alterTable('staff_users', (t) => t.dropColumn('session_version'));
  },
};
