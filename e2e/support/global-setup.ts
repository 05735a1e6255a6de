import fs from 'node:fs';
import path from 'node:path';
import { newDataDir, startServer } from './server';

/** Starts the shared production server for the run; its URL reaches specs through E2E_BASE_URL. */
export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT ?? 3210);
  const server = await startServer({ port, dataDir: newDataDir('shared') });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_DATA_DIR = server.dataDir;
  return async () => {
    await server.stop();
    if (process.env.E2E_KEEP_LOGS) fs.writeFileSync(path.join(server.dataDir, 'server.log'), server.logs());
  };
}
