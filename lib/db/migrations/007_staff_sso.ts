import type { Migration } from './migration';

/**
 * Staff single sign-on (issue 11 §4): the identity provider's issuer and subject of the person an
 * account belongs to, so a changed e-mail at the provider still finds the same account.
 */
export const staffSso: Migration = {
  async up(db) {
    await db.schema.alterTable('staff_users', (t) => {
      t.string('sso_subject', 512).unique();
    });
  },
  async down(db) {
    await db.schema.alterTable('staff_users', (t) => {
      t.dropUnique(['sso_subject']);
      t.dropColumn('sso_subject');
    });
  },
};
