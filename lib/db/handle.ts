import 'server-only';
import type { Knex } from 'knex';
import { createKnex } from '@/lib/db/connection';
import { migrationSource } from '@/lib/db/migrations';
import { withPostgresMigrationLock } from '@/lib/db/migration-lock';
import { dialectOf } from '@/lib/db/dialect';
import { env } from '@/lib/config/env';
import { traceKnexQueries } from '@/lib/db/query-spans';
import { isTracing } from '@/lib/observability/tracing';

/**
 * The process's one database handle, migrated before first use. Seeding and the features' own
 * preparation run once at start (lib/seed/prepare.ts, called by lib/startup.ts), so this bottom
 * layer imports no feature. Kept on globalThis so that dev-mode hot reloads reuse the pool instead
 * of opening a new one per reload.
 */
const holder = globalThis as typeof globalThis & { __integrationConsoleDb?: Promise<Knex> };

export function getDb(): Promise<Knex> {
  holder.__integrationConsoleDb ??= open().catch((error: unknown) => {
    holder.__integrationConsoleDb = undefined; // let the next request try again
    throw error;
  });
  return holder.__integrationConsoleDb;
}

async function open(): Promise<Knex> {
  const db = createKnex();
  // Tracing starts before the database opens (lib/startup.ts); off, knex's events get no listener.
  if (isTracing()) traceKnexQueries(db);
  await migrate(db);
  return db;
}

/** Migrates to the latest schema: on PostgreSQL one instance at a time (migration-lock.ts), elsewhere retrying while another instance holds knex's lock. */
export async function migrate(db: Knex): Promise<void> {
  const url = env().DATABASE_URL;
  if (url && dialectOf(db) === 'postgres') await withPostgresMigrationLock(db, url, () => migrateWithRetry(db));
  else await migrateWithRetry(db);
}

/**
 * Instances starting together contend for knex's migration lock; the losers wait and retry. On an
 * empty database they also race to create knex's own bookkeeping tables, which that lock does not
 * cover: the loser gets "already exists" and retries too, then finds the tables and the lock.
 */
async function migrateWithRetry(db: Knex): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.migrate.latest({ migrationSource });
      return;
    } catch (error) {
      // Another instance's migrations may take a while on a busy server: up to a minute.
      if (!isMigrationRace(error) || attempt >= 120) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Lock held by another instance, or its bookkeeping table created under our feet (PostgreSQL 42P07/23505, Oracle ORA-00955/ORA-00001). */
function isMigrationRace(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  return (
    /already locked/i.test(error.message) ||
    (typeof code === 'string' && ['42P07', '23505'].includes(code)) ||
    /ORA-00955|ORA-00001/.test(error.message)
  );
}

export async function closeDb(): Promise<void> {
  const pending = holder.__integrationConsoleDb;
  holder.__integrationConsoleDb = undefined;
  if (pending) await (await pending).destroy();
}
