import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { closeDb, getDb } from '@/lib/db/handle';
import { createKnex } from '@/lib/db/connection';
import { migrationSource } from '@/lib/db/migrations';
import { writeSeedFile } from '@/e2e/support/server';
import { storeContract } from '@/lib/testing/store-contract';
import { resetEnv } from '@/lib/testing/hooks';

/**
 * Opt-in: ORACLE_TEST_URL=oracle://user:password@host:1521/FREEPDB1. The app's tables are created
 * by the knex migrations in that user's schema and rolled back (dropped) at the end, so use a
 * throw-away user. Skipped without ORACLE_TEST_URL.
 */
const url = process.env.ORACLE_TEST_URL;

async function rollbackEverything(): Promise<void> {
  const db = createKnex();
  try {
    await db.migrate.rollback({ migrationSource }, true);
  } finally {
    await db.destroy();
  }
}

describe.skipIf(!url)('repositories and migrations on Oracle (ORACLE_TEST_URL)', () => {
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-repo-oracle-'));
    Object.assign(process.env, { DATA_DIR: dataDir, SEED_FILE: writeSeedFile(dataDir), DATABASE_URL: url, LOG_SILENT: 'true' });
    resetEnv();
    await rollbackEverything(); // leftovers of an interrupted run
    await getDb();
  }, 120_000);
  afterAll(async () => {
    await closeDb();
    await rollbackEverything();
  }, 120_000);
  storeContract();
});
