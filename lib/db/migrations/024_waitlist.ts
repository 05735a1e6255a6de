import type { Migration } from './migration';

/**
 * The scheduling waitlist (issue 48): a tenant's entries for an exam, the offers of freed slots
 * made to them, and each exam's turns between tenants (lib/waitlist). An offer's `active_slot` is
 * its slot while it is being reserved or is out, null once it ends: the unique key lets one offer
 * at a time hold a slot, across instances.
 */
export const waitlist: Migration = {
  async up(db) {
    await db.schema.createTable('waitlist_entries', (t) => {
      t.string('id', 36).primary();
      t.string('usuario_id', 36).notNullable();
      t.string('owner', 200).notNullable();
      t.string('created_by', 254).notNullable();
      t.bigInteger('nr_seq_proc_interno').notNullable();
      t.string('ie_lado', 1);
      t.integer('nr_min_duracao').notNullable();
      t.string('agendas_json', 2000);
      t.bigInteger('window_from').notNullable();
      t.bigInteger('window_to').notNullable();
      t.bigInteger('cd_pessoa_fisica').notNullable();
      t.integer('cd_convenio').notNullable();
      t.integer('cd_categoria').notNullable();
      t.integer('cd_plano').notNullable();
      t.string('cd_usuario_convenio', 40).notNullable();
      t.string('nm_usuario', 30).notNullable();
      t.string('status', 20).notNullable();
      t.double('position').notNullable();
      t.bigInteger('retry_at');
      t.bigInteger('created_at').notNullable();
      t.bigInteger('updated_at').notNullable();
      t.index(['nr_seq_proc_interno', 'status', 'position'], 'waitlist_entries_line_ix');
      t.index(['usuario_id', 'status'], 'waitlist_entries_tenant_ix');
    });
    await db.schema.createTable('waitlist_offers', (t) => {
      t.string('id', 36).primary();
      t.string('entry_id', 36).notNullable().index('waitlist_offers_entry_ix');
      t.string('usuario_id', 36).notNullable();
      t.bigInteger('nr_seq_agenda').notNullable();
      t.bigInteger('active_slot').unique('waitlist_offers_active_slot_uq');
      t.bigInteger('cd_agenda').notNullable();
      t.string('dt_agenda', 40).notNullable();
      t.string('token', 64);
      t.string('status', 20).notNullable();
      // While `liberando`: what the offer becomes once its slot is released (recusada, expirada, removida).
      t.string('release_as', 20);
      t.string('lease_owner', 64);
      t.bigInteger('lease_until');
      t.bigInteger('deadline');
      // Whether the event of the offer's current state is published (lib/waitlist/announce.ts).
      t.boolean('announced').notNullable().defaultTo(true);
      t.bigInteger('created_at').notNullable();
      t.bigInteger('ended_at');
      t.index(['status', 'deadline'], 'waitlist_offers_status_ix');
    });
    await db.schema.createTable('waitlist_turns', (t) => {
      t.bigInteger('nr_seq_proc_interno').notNullable();
      t.string('usuario_id', 36).notNullable();
      t.bigInteger('last_offer_at').notNullable();
      t.primary(['nr_seq_proc_interno', 'usuario_id']);
    });
  },
  async down(db) {
    await db.schema.dropTableIfExists('waitlist_turns');
    await db.schema.dropTableIfExists('waitlist_offers');
    await db.schema.dropTableIfExists('waitlist_entries');
  },
};
