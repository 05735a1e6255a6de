import fs from 'node:fs';
import path from 'node:path';
import { adminDatabaseUrl, createDatabase, dropDatabase } from './databases';
import { ApiRouter } from './api-router';
import { freePort, newDataDir, newRunDir, startServer, type RunningServer } from './server';
import { seedDay } from './test-seed';

/**
 * Starts the shared production server for the run; its URL reaches specs through E2E_BASE_URL.
 * With E2E_API_SERVER=lean (npm run test:e2e:pg sets it) the API paths are served by the lean API server
 * (npm run start:api) instead, behind a balancer (api-router.ts) that sends the rest to Next; with
 * E2E_API_SERVER=container (npm run test:e2e:container) the shared server is the container image's
 * command, where Next's catch-all route answers the API through the same router.
 * With E2E_DATABASE_URL (npm run test:e2e:pg) the run's app data lives in a fresh PostgreSQL
 * database instead of the embedded SQLite file; every server the run starts uses it.
 */
export default async function globalSetup() {
  // playwright.config.ts chose it (E2E_PORT, given or free).
  const port = Number(process.env.E2E_PORT);
  const lean = process.env.E2E_API_SERVER === 'lean';
  const container = process.env.E2E_API_SERVER === 'container';
  // Before any worker starts, so the whole run agrees on the seed's day.
  seedDay();
  const runDir = newRunDir();
  process.env.E2E_RUN_DIR = runDir;
  const adminUrl = adminDatabaseUrl();
  const databaseUrl = adminUrl ? await createDatabase(adminUrl, 'run') : undefined;
  if (databaseUrl) process.env.E2E_RUN_DATABASE_URL = databaseUrl;
  const dataDir = newDataDir('shared');
  const servers: RunningServer[] = [];
  let router: ApiRouter | undefined;
  try {
    // With the lean API server, Next and it listen on free ports of their own behind the balancer.
    servers.push(await startServer({ port: lean ? await freePort() : port, dataDir, entry: container ? 'container' : 'next' }));
    if (lean) {
      // The lean API server beside Next on the same data, behind a balancer on the run's port.
      servers.push(await startServer({ port: await freePort(), dataDir, entry: 'api' }));
      router = await new ApiRouter(servers[1]!.url, servers[0]!.url).listen(port);
    }
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    if (adminUrl && databaseUrl) await dropDatabase(adminUrl, databaseUrl);
    throw error;
  }
  process.env.E2E_BASE_URL = router?.url ?? servers[0]!.url;
  process.env.E2E_DATA_DIR = dataDir;
  return async () => {
    await router?.stop();
    await Promise.all(servers.map((server) => server.stop()));
    const logs = servers.map((server) => server.logs()).join('\n');
    if (process.env.E2E_KEEP_LOGS) fs.writeFileSync(path.join(dataDir, 'server.log'), logs);
    else fs.rmSync(runDir, { recursive: true, force: true });
    if (adminUrl && databaseUrl) await dropDatabase(adminUrl, databaseUrl);
    // An answer that did not match its operation's declaration fails the run, even where the spec
    // that caused it did not look at that answer (server.ts turns the check on).
    const mismatches = logs.split('\n').filter((line) => line.includes('"event":"api.answer_mismatch"'));
    if (mismatches.length) throw new Error(`Answers that do not match their declared responses:\n${mismatches.join('\n')}`);
  };
}
