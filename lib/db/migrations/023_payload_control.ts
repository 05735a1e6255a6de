import type { Migration } from './migration';

/**
 * Payload control (issue 46): a configuration's content filter and field rules (JSON) and its
 * transformation (code), and each attempt's body as sent (minimised and transformed, so the log
 * shows what the receiver got). Filtered deliveries are rows with status `filtrada`: no new column.
 */
export const payloadControl: Migration = {
  async up(db) {
    await db.schema.alterTable('webhook_configs', (t) => {
      t.text('payload_filter_json');
      t.text('payload_fields_json');
      t.text('payload_transform');
    });
    await db.schema.alterTable('webhook_attempts', (t) => t.text('request_body'));
  },
  async down(db) {
    await db.schema.alterTable('webhook_attempts', (t) => t.dropColumn('request_body'));
    await db.schema.alterTable('webhook_configs', (t) => t.dropColumns('payload_filter_json', 'payload_fields_json', 'payload_transform'));
  },
};
