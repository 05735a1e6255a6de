import 'server-only';
import type { Knex } from 'knex';
import { dialectOf, isUniqueViolation, lockForUpdate, type DbRow } from '@/lib/db/dialect';
import { rowsOf } from './rows';

/** Tenants' lock rows (webhook_tenants): claims and configuration creates lock them, so per-tenant caps and counts hold across instances. */

/** Tenants known to have their lock row, per database handle: a row is never deleted. */
const knownTenants = new WeakMap<Knex, Set<string>>();

/**
 * The tenant's row in webhook_tenants (claims and configuration creates lock it), added the first
 * time it is needed: in a statement of its own, before the caller's transaction (on PostgreSQL a
 * duplicate key inside it would abort the whole transaction).
 */
export async function ensureTenantRow(db: Knex, tenant: string): Promise<void> {
  const known = knownTenants.get(db) ?? new Set<string>();
  knownTenants.set(db, known);
  if (known.has(tenant)) return;
  const [row] = await db('webhook_tenants').where({ usuario_id: tenant }).select<DbRow[]>('usuario_id');
  if (!row) {
    try {
      await db('webhook_tenants').insert({ usuario_id: tenant });
    } catch (error) {
      // Another instance or request added it at the same moment.
      if (!isUniqueViolation(error)) throw error;
    }
  }
  known.add(tenant);
}

/**
 * Locks the tenant's row (ensureTenantRow first) until the transaction ends: a configuration
 * create for the same tenant on another instance waits here, then counts what this one added.
 * SQLite has one writer: nothing to lock.
 */
export async function lockTenantRow(trx: Knex.Transaction, usuarioId: string): Promise<void> {
  await lockForUpdate(trx, trx('webhook_tenants').where({ usuario_id: usuarioId }).select('usuario_id'));
}

/**
 * Locks the tenants' rows for this claim and answers those it got; a tenant another instance is
 * claiming for right now is skipped, not waited for. SQLite has one writer: every tenant, unlocked.
 */
export async function lockTenants(trx: Knex.Transaction, tenants: readonly string[]): Promise<Set<string>> {
  if (tenants.length === 0) return new Set();
  const dialect = dialectOf(trx);
  if (dialect === 'sqlite') return new Set(tenants);
  const locked = new Set<string>();
  for (let i = 0; i < tenants.length; i += 1000) {
    const batch = tenants.slice(i, i + 1000);
    const rows =
      dialect === 'oracle'
        ? rowsOf(await trx.raw(oracleLockTenantsSql(batch.length), batch))
        : await trx('webhook_tenants').whereIn('usuario_id', batch).select<DbRow[]>('usuario_id').forUpdate().skipLocked();
    for (const row of rows) locked.add(String(row.usuario_id));
  }
  return locked;
}

/**
 * Oracle's lock, written out: knex refuses SKIP LOCKED on Oracle. Identifiers are quoted lowercase,
 * as knex created them; at most 1,000 binds (Oracle's IN list).
 */
export function oracleLockTenantsSql(count: number): string {
  const binds = Array.from({ length: count }, () => '?').join(', ');
  return `select "usuario_id" from "webhook_tenants" where "usuario_id" in (${binds}) for update skip locked`;
}
