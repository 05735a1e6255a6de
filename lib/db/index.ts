import 'server-only';
import type { Knex } from 'knex';
import { createKnex } from './connection';
import { migrationSource } from './migrations';
import { loadSeed, seedOnce } from './seed';

/**
 * The process's one database handle, migrated and seeded before first use. Kept on globalThis so
 * that dev-mode hot reloads reuse the pool instead of opening a new one per reload.
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
  await migrateWithRetry(db);
  await seedOnce(db, loadSeed());
  return db;
}

/** Instances starting together contend for knex's migration lock; the losers wait and retry. */
async function migrateWithRetry(db: Knex): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.migrate.latest({ migrationSource });
      return;
    } catch (error) {
      const locked = error instanceof Error && /already locked/i.test(error.message);
      if (!locked || attempt >= 30) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

export async function closeDb(): Promise<void> {
  const pending = holder.__integrationConsoleDb;
  holder.__integrationConsoleDb = undefined;
  if (pending) await (await pending).destroy();
}
