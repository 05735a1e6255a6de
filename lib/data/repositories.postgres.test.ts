import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { closeDb } from '@/lib/db/handle';
import { createDatabase, dropDatabase } from '@/e2e/support/databases';
import { writeSeedFile } from '@/e2e/support/server';
import { storeContract } from '@/lib/testing/store-contract';
import { resetEnv } from '@/lib/testing/hooks';

/** Opt-in: POSTGRES_TEST_URL=postgres://postgres@127.0.0.1:5432/postgres (a fresh database is created and dropped). */
const adminUrl = process.env.POSTGRES_TEST_URL;

describe.skipIf(!adminUrl)('repositories on PostgreSQL (POSTGRES_TEST_URL)', () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createDatabase(adminUrl ?? '', 'unit');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-repo-pg-'));
    Object.assign(process.env, { DATA_DIR: dataDir, SEED_FILE: writeSeedFile(dataDir), DATABASE_URL: databaseUrl, LOG_SILENT: 'true' });
    resetEnv();
  });
  afterAll(async () => {
    await closeDb();
    if (databaseUrl) await dropDatabase(adminUrl ?? '', databaseUrl);
  });
  storeContract();
});
