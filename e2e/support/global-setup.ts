import fs from 'node:fs';
import path from 'node:path';
import { adminDatabaseUrl, createDatabase, dropDatabase } from './databases';
import { newDataDir, newRunDir, startServer } from './server';

/**
 * Starts the shared production server for the run; its URL reaches specs through E2E_BASE_URL.
 * With E2E_DATABASE_URL (npm run test:e2e:pg) the run's app data lives in a fresh PostgreSQL
 * database instead of the embedded SQLite file; every server the run starts uses it.
 */
export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT ?? 3210);
  const runDir = newRunDir();
  process.env.E2E_RUN_DIR = runDir;
  const adminUrl = adminDatabaseUrl();
  const databaseUrl = adminUrl ? await createDatabase(adminUrl, 'run') : undefined;
  if (databaseUrl) process.env.E2E_RUN_DATABASE_URL = databaseUrl;
  const server = await startServer({ port, dataDir: newDataDir('shared') }).catch(async (error: unknown) => {
    if (adminUrl && databaseUrl) await dropDatabase(adminUrl, databaseUrl);
    throw error;
  });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
    if (process.env.E2E_KEEP_LOGS) fs.writeFileSync(path.join(server.dataDir, 'server.log'), server.logs());
    else fs.rmSync(runDir, { recursive: true, force: true });
    if (adminUrl && databaseUrl) await dropDatabase(adminUrl, databaseUrl);
  };
}
