import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, getDb } from '@/lib/db/handle';
import { writeSeedFile } from '@/e2e/support/server';
import { resetEnv } from '@/lib/testing/hooks';

describe('the embedded database files', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-perms-'));
  afterAll(async () => {
    await closeDb();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('are readable and writable by the owner only, the WAL included', async () => {
    Object.assign(process.env, { DATA_DIR: dataDir, SEED_FILE: writeSeedFile(dataDir), LOG_SILENT: 'true' });
    delete process.env.DATABASE_URL;
    resetEnv();
    const previous = process.umask(0o022); // the usual umask, which would leave them world-readable
    try {
      const db = await getDb();
      await db('app_meta').insert({ meta_key: 'permissions-test', meta_value: 'x' });
    } finally {
      process.umask(previous);
    }
    for (const name of ['integration-console.sqlite', 'integration-console.sqlite-wal']) {
      expect((fs.statSync(path.join(dataDir, name)).mode & 0o777).toString(8), name).toBe('600');
    }
  });
});
