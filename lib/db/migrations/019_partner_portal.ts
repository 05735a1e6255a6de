import type { Migration } from './migration';

/**
 * The partner portal (issue 30): single-use links staff or a tenant's API client issue, and the
 * sessions they open. Only SHA-256 hashes of a link's token and of a session's cookie are kept, so
 * a copy of the database opens nothing. `id` is the public handle staff list and revoke them by.
 */
export const partnerPortal: Migration = {
  async up(db) {
    await db.schema.createTable('portal_links', (t) => {
      t.string('id', 36).primary();
      t.string('token_hash', 64).notNullable().unique();
      t.string('usuario_id', 36).notNullable();
      t.integer('sistema_origem').notNullable();
      t.boolean('read_only').notNullable().defaultTo(false);
      t.string('issued_by', 200).notNullable();
      t.bigInteger('created_at').notNullable();
      t.bigInteger('expires_at').notNullable();
      t.bigInteger('used_at');
      t.bigInteger('revoked_at');
      t.index(['usuario_id', 'expires_at'], 'portal_links_tenant_ix');
    });
    await db.schema.createTable('portal_sessions', (t) => {
      t.string('id', 36).primary();
      t.string('session_hash', 64).notNullable().unique();
      t.string('link_id', 36).notNullable();
      t.string('usuario_id', 36).notNullable();
      t.integer('sistema_origem').notNullable();
      t.boolean('read_only').notNullable().defaultTo(false);
      t.bigInteger('created_at').notNullable();
      t.bigInteger('expires_at').notNullable();
      t.bigInteger('revoked_at');
      t.index(['usuario_id', 'expires_at'], 'portal_sessions_tenant_ix');
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('portal_sessions');
    await db.schema.dropTableIfExists('portal_links');
  },
};
