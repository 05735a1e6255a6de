import 'server-only';
import type { Knex } from 'knex';
import pg from 'pg';

/**
 * Instances starting together on one PostgreSQL database take turns to migrate through a session
 * advisory lock, held on a connection of its own (not the pool's, so a pool of one cannot
 * deadlock) and released by the server when that session ends, a killed process included.
 *
 * knex's own lock is a row in `knex_migrations_lock`, and it fails in two ways no retry ends:
 * - an instance killed while holding it leaves `is_locked = 1` behind;
 * - two instances creating the bookkeeping tables of an empty database at once can each insert a
 *   row, and with two rows knex's `UPDATE … WHERE is_locked = 0` never touches exactly one.
 * Either way every later start answers "Migration table is already locked". Holding the advisory
 * lock, no other instance is migrating, so the row is made one again, unlocked, before knex runs.
 */
const ADVISORY_KEY = 7_140_236_512; // any constant; the same in every instance of this app
const KNEX_LOCK_TABLE = 'knex_migrations_lock';

export async function withPostgresMigrationLock<T>(db: Knex, url: string, migrate: () => Promise<T>): Promise<T> {
  const session = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await session.connect();
    await session.query('SELECT pg_advisory_lock($1)', [ADVISORY_KEY]);
    await resetKnexLock(db);
    return await migrate();
  } finally {
    // Ending the session releases the advisory lock.
    await session.end().catch(() => undefined);
  }
}

/** One unlocked row in knex's lock table, when it exists and holds anything else. */
async function resetKnexLock(db: Knex): Promise<void> {
  if (!(await db.schema.hasTable(KNEX_LOCK_TABLE))) return;
  const rows = await db<{ is_locked: unknown }>(KNEX_LOCK_TABLE).select('is_locked');
  if (rows.length === 1 && Number(rows[0]!.is_locked) === 0) return;
  await db.transaction(async (trx) => {
    await trx(KNEX_LOCK_TABLE).del();
    await trx(KNEX_LOCK_TABLE).insert({ is_locked: 0 });
  });
}
