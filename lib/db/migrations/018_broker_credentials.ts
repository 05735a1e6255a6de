import type { Migration } from './migration';

/**
 * Broker destinations (issue 29): the credentials a broker target is reached with, a
 * secret of the configuration, encrypted as its signing secret is (lib/webhooks/secrets.ts).
 */
export const brokerCredentials: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.string('broker_credentials_enc', 2000));
  },
  async down(db) {
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumn('broker_credentials_enc'));
  },
};
