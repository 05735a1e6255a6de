import type { Migration } from './migration';

/**
 * Reservations belong to the tenant that made them, and holds expire (issue 9).
 * - `reservations` (the embedded scheduler's own data) gets its `owner` (ownerKey of the caller), so
 *   a release checks it in the same transaction, and `expires_at` (NULL: never). Rows made before
 *   have no owner: only staff acting for the hospital can release them.
 * - `reservation_log` is the read model of the recent-reservations list on every back-end, written
 *   by the service after the back-end answers. Patient identifiers are stored masked only. It
 *   starts empty: the audit trail does not hold the owner (issuer and usuarioId) of old entries.
 */
export const reservationOwnership: Migration = {
  async up(db) {
    await db.schema.alterTable('reservations', (t) => {
      t.string('owner', 200);
      t.bigInteger('expires_at');
      t.index(['owner', 'status'], 'reservations_owner_status_ix');
    });
    await db.schema.createTable('reservation_log', (t) => {
      t.string('id', 36).primary();
      t.string('token', 32).notNullable().index('reservation_log_token_ix');
      t.string('owner', 200).notNullable();
      t.string('actor_id', 200).notNullable();
      t.string('state', 10).notNullable();
      t.bigInteger('nr_seq_agenda').notNullable();
      t.bigInteger('nr_seq_proc_interno').notNullable();
      t.integer('nr_min_duracao').notNullable();
      t.string('ie_lado', 1);
      t.bigInteger('cd_convenio').notNullable();
      t.bigInteger('cd_categoria').notNullable();
      t.bigInteger('cd_plano').notNullable();
      t.string('nm_usuario', 30).notNullable();
      t.string('cd_pessoa_fisica_masked', 40).notNullable();
      t.string('cd_usuario_convenio_masked', 40).notNullable();
      t.bigInteger('created_at').notNullable().index('reservation_log_created_ix');
      t.bigInteger('released_at');
      t.bigInteger('expires_at');
      t.index(['owner', 'state'], 'reservation_log_owner_state_ix');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('reservation_log');
    await db.schema.alterTable('reservations', (t) => {
      t.dropIndex(['owner', 'status'], 'reservations_owner_status_ix');
      t.dropColumn('expires_at');
      t.dropColumn('owner');
    });
  },
};
