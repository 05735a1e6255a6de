import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { migrationSource } from '@/lib/db/migrations';
import { seedOnce } from '@/lib/seed/seed';
import { seedSchema, type SeedInput } from '@/lib/seed/seed-format';

/** A real, migrated SQLite database in a temporary folder, for unit tests of repositories and rules. */
export async function migratedSqlite(seed?: SeedInput): Promise<{ db: Knex; cleanup(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-unit-'));
  const db = knex({
    client: 'better-sqlite3',
    connection: { filename: path.join(dir, 'test.sqlite') },
    useNullAsDefault: true,
    pool: { min: 1, max: 1 },
  });
  await db.migrate.latest({ migrationSource });
  if (seed) await seedOnce(db, seedSchema.parse(seed));
  return {
    db,
    async cleanup() {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
