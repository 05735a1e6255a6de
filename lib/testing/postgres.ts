import knex, { type Knex } from 'knex';
import { createDatabase, dropDatabase } from '@/e2e/support/databases';
import { migrationSource } from '@/lib/db/migrations';

/**
 * A real, migrated PostgreSQL database of its own (named after `label`, underscores only), made on
 * the server `adminUrl` names (POSTGRES_TEST_URL in `npm run test:unit:pg`) and dropped by
 * cleanup(): the PostgreSQL counterpart of migratedSqlite.
 */
export async function migratedPostgres(adminUrl: string, label: string, poolMax = 2): Promise<{ db: Knex; cleanup(): Promise<void> }> {
  const url = await createDatabase(adminUrl, label);
  const db = knex({ client: 'pg', connection: url, pool: { min: 0, max: poolMax } });
  await db.migrate.latest({ migrationSource });
  return {
    db,
    async cleanup() {
      await db.destroy();
      await dropDatabase(adminUrl, url);
    },
  };
}
