import type { Migration } from './migration';

/**
 * One-click release from the console's recent reservations (issue 47): a reservation staff make
 * keeps what its release (CR) needs and the log does not (the patient's identifiers), sealed
 * (lib/auth/sealing.ts) and bound to its row. The column is cleared once the reservation is no
 * longer releasable: released, or its hold lapsed.
 */
export const releaseIdentifiers: Migration = {
  async up(db) {
    await db.schema.alterTable('reservation_log', (t) => t.text('release_sealed'));
  },
  async down(db) {
    await db.schema.alterTable('reservation_log', (t) => t.dropColumn('release_sealed'));
  },
};
