import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { closeDb } from '@/lib/db/handle';
import { writeSeedFile } from '@/e2e/support/server';
import { storeContract } from '@/lib/testing/store-contract';
import { resetEnv } from '@/lib/testing/hooks';

describe('repositories on the embedded SQLite database', () => {
  let dataDir = '';
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-repo-sqlite-'));
    Object.assign(process.env, { DATA_DIR: dataDir, SEED_FILE: writeSeedFile(dataDir), LOG_SILENT: 'true' });
    delete process.env.DATABASE_URL;
    resetEnv();
  });
  afterAll(async () => {
    await closeDb();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  storeContract();
});
