import type { Migration } from './migration';

/**
 * Contact confirmation (issue 43): a technical contact (contact_email) gets notices only once its
 * owner confirmed it from the link of the one e-mail sent when it is set. The link's token is kept
 * as its SHA-256 hash, with its end of life. Contacts stored before start unconfirmed: set again,
 * each gets its confirmation e-mail.
 */
export const contactConfirmation: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.bigInteger('contact_confirmed_at');
      t.string('contact_token_hash', 64);
      t.bigInteger('contact_token_expires');
      t.index(['contact_token_hash'], 'webhook_configs_contact_token_ix');
    });
  },
  async down(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.dropIndex(['contact_token_hash'], 'webhook_configs_contact_token_ix');
      t.dropColumn('contact_token_expires');
      t.dropColumn('contact_token_hash');
      t.dropColumn('contact_confirmed_at');
    });
  },
};
