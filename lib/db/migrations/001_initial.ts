import type { Migration } from './migration';

export const initial: Migration = {
  async up(db) {
    await db.schema.createTable('app_meta', (t) => {
      t.string('meta_key', 64).primary();
      t.string('meta_value', 4000);
    });
    await db.schema.createTable('staff_users', (t) => {
      t.string('id', 36).primary();
      t.string('email', 254).notNullable().unique();
      t.string('name', 200).notNullable();
      t.string('password_hash', 255).notNullable();
      t.string('roles', 200).notNullable();
      t.bigInteger('created_at').notNullable();
    });
    await db.schema.createTable('login_throttle', (t) => {
      t.string('throttle_key', 128).primary();
      t.integer('failures').notNullable();
      t.bigInteger('window_start').notNullable();
      t.bigInteger('locked_until');
    });
    await db.schema.createTable('api_clients', (t) => {
      t.string('client_id', 100).primary();
      t.string('secret_hash', 255).notNullable();
      t.string('name', 200).notNullable();
      t.string('usuario_id', 36).notNullable();
      t.integer('sistema_origem').notNullable();
      t.bigInteger('created_at').notNullable();
    });
    await db.schema.createTable('webhook_configs', (t) => {
      t.string('id', 36).primary();
      t.string('usuario_id', 36).notNullable().index();
      t.integer('sistema_origem').notNullable();
      t.string('client_id', 100);
      t.string('url', 2048).notNullable();
      t.text('headers_json').notNullable();
      t.boolean('ev_aprovada').notNullable();
      t.boolean('ev_aguardando').notNullable();
      t.boolean('ev_arquivada').notNullable();
      t.boolean('ev_desarquivada').notNullable();
      t.boolean('ev_proposta_cancelada').notNullable();
      t.integer('version').notNullable();
      t.bigInteger('updated_at').notNullable();
    });
    await db.schema.createTable('procedures', (t) => {
      t.bigInteger('nr_seq_proc_interno').primary();
      t.string('description', 200).notNullable();
      t.integer('default_minutes').notNullable();
      t.boolean('requires_side').notNullable();
    });
    await db.schema.createTable('agendas', (t) => {
      t.bigInteger('cd_agenda').primary();
    });
    await db.schema.createTable('slots', (t) => {
      t.bigInteger('nr_seq_agenda').primary();
      t.bigInteger('cd_agenda').notNullable().index();
      t.string('start_iso', 40).notNullable();
      t.bigInteger('start_ms').notNullable().index();
      t.integer('minutes').notNullable();
    });
    await db.schema.createTable('reservations', (t) => {
      t.string('token', 32).primary();
      t.bigInteger('nr_seq_agenda').notNullable().index();
      t.bigInteger('cd_agenda').notNullable();
      t.bigInteger('start_ms').notNullable();
      t.bigInteger('end_ms').notNullable();
      t.bigInteger('nr_seq_proc_interno').notNullable();
      t.bigInteger('cd_pessoa_fisica').notNullable();
      t.string('ie_lado', 1);
      t.bigInteger('cd_convenio').notNullable();
      t.bigInteger('cd_categoria').notNullable();
      t.bigInteger('cd_plano').notNullable();
      t.string('cd_usuario_convenio', 40).notNullable();
      t.string('nm_usuario', 30).notNullable();
      t.string('status', 10).notNullable();
      t.bigInteger('reserved_at').notNullable();
      t.bigInteger('released_at');
      t.index(['cd_agenda', 'status']);
      t.index(['cd_pessoa_fisica', 'nr_seq_proc_interno', 'status']);
    });
    await db.schema.createTable('audit_events', (t) => {
      t.string('id', 36).primary();
      t.bigInteger('at_ms').notNullable().index();
      t.string('actor_kind', 20).notNullable();
      t.string('actor_id', 200).notNullable();
      t.string('action', 40).notNullable();
      t.string('target', 100).notNullable();
      t.string('outcome', 40).notNullable();
      t.integer('http_status');
      t.text('before_json');
      t.text('after_json');
    });
    await db.schema.createTable('idempotency_keys', (t) => {
      t.string('owner', 200).notNullable();
      t.string('idem_key', 255).notNullable();
      t.string('request_hash', 64).notNullable();
      t.string('state', 12).notNullable();
      t.integer('http_status');
      t.text('response_json');
      t.bigInteger('created_at').notNullable().index();
      t.primary(['owner', 'idem_key']);
    });
  },
  async down(db) {
    for (const table of [
      'idempotency_keys',
      'audit_events',
      'reservations',
      'slots',
      'agendas',
      'procedures',
      'webhook_configs',
      'api_clients',
      'login_throttle',
      'staff_users',
      'app_meta',
    ]) {
      await db.schema.dropTableIfExists(table);
    }
  },
};
