import type { Migration } from './migration';

/**
 * API clients managed in the console (issue 11 §2): revocation, when each last obtained a token,
 * and the previous secret's hash while a rotation's overlap lasts.
 */
export const apiClientLifecycle: Migration = {
  async up(db) {
    await db.schema.alterTable('api_clients', (t) => {
      t.bigInteger('revoked_at');
      t.bigInteger('last_token_at');
      t.string('previous_secret_hash', 255);
      t.bigInteger('previous_secret_until');
    });
  },
  async down(db) {
    await db.schema.alterTable('api_clients', (t) => {
      for (const column of ['revoked_at', 'last_token_at', 'previous_secret_hash', 'previous_secret_until']) t.dropColumn(column);
    });
  },
};
