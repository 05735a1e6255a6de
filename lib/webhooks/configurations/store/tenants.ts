import 'server-only';
import type { Knex } from 'knex';
import { isUniqueViolation, lockForUpdate, type DbRow } from '@/lib/db/dialect';
import { dialectOfExecutor, type Executor } from '@/lib/db/precompiled';

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
 * Locks the tenants' rows for this claim, one at a time in their sorted order, waiting for a claim
 * another instance is making for the same tenant (a few milliseconds): two instances lock in the
 * same order and never deadlock, and neither passes over a tenant the other is claiming for (with
 * SKIP LOCKED, two instances delivering to one tenant kept skipping each other's turns). Answers
 * the tenants locked (a tenant without its row yet is not). SQLite has one writer: every tenant.
 */
export async function lockTenants(tx: Executor, tenants: readonly string[]): Promise<Set<string>> {
  const dialect = dialectOfExecutor(tx);
  if (dialect === 'sqlite') return new Set(tenants);
  const trx = tx as Knex.Transaction; // only SQLite runs direct transactions
  const sorted = [...tenants].sort();
  // PostgreSQL locks the rows of `ORDER BY … FOR UPDATE` one by one as they leave the sort, so one
  // statement locks them in the same order as one each (byte order, as the sort above: "C"), in
  // one round trip for the claim rather than one per tenant. Oracle locks a cursor's rows when it
  // opens, in no stated order: one statement each there.
  if (dialect === 'postgres') {
    const locked = new Set<string>();
    for (let i = 0; i < sorted.length; i += 1000) {
      const rows = await trx('webhook_tenants')
        .whereIn('usuario_id', sorted.slice(i, i + 1000))
        .orderByRaw('usuario_id COLLATE "C"')
        .forUpdate()
        .select<DbRow[]>('usuario_id');
      for (const row of rows) locked.add(String(row.usuario_id));
    }
    return locked;
  }
  const locked = new Set<string>();
  for (const tenant of sorted) {
    const rows = await lockForUpdate(trx, trx('webhook_tenants').where({ usuario_id: tenant }).select<DbRow[]>('usuario_id'));
    if (rows.length > 0) locked.add(tenant);
  }
  return locked;
}
