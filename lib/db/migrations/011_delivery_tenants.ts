import type { Migration } from './migration';

/**
 * Tenants of the delivery engine (issue 27): one row per usuarioId with webhook configurations, the
 * row a claim locks (SKIP LOCKED) on PostgreSQL and Oracle so that one instance at a time claims for
 * a tenant, and its attempts in flight, counted under that lock, stay within the tenant's cap across
 * instances. Rows are added as events are queued; none is ever deleted.
 */
export const deliveryTenants: Migration = {
  async up(db) {
    await db.schema.createTable('webhook_tenants', (t) => {
      t.string('usuario_id', 36).primary();
    });
    await db.raw('insert into ?? (??) select distinct ?? from ??', ['webhook_tenants', 'usuario_id', 'usuario_id', 'webhook_configs']);
  },
  async down(db) {
    await db.schema.dropTableIfExists('webhook_tenants');
  },
};
