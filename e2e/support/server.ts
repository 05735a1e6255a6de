import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from '@playwright/test';
import { buildTestSeed } from './test-seed';

/**
 * Starts the production build (`npm start`: the standalone server) as a separate process, the way users run it, with its
 * own DATA_DIR and the e2e seed. Specs that need to kill or restart a server (durability,
 * multi-instance) start their own; the shared one comes from global-setup.ts. In a run against
 * PostgreSQL every server gets the run's DATABASE_URL unless the spec passes its own.
 */
export type RunningServer = {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  logs: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
};

/**
 * Every server's DATA_DIR lives in the run's folder (E2E_RUN_DIR, made by global-setup and removed
 * at the end of the run), so a run leaves nothing behind in the system temp folder.
 */
export function newDataDir(label: string): string {
  const parent = process.env.E2E_RUN_DIR ?? os.tmpdir();
  return fs.mkdtempSync(path.join(parent, `ic-e2e-${label}-`));
}

export function newRunDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ic-e2e-run-'));
}

export function writeSeedFile(dataDir: string): string {
  const file = path.join(dataDir, 'seed.json');
  fs.writeFileSync(file, JSON.stringify(buildTestSeed()));
  return file;
}

/**
 * `next`: `npm start` (console and API, the API on the lean path); `api`: `npm run start:api`, the
 * lean API server alone; `container`: the container image's command (Dockerfile), Next's
 * standalone server answering the API itself through its catch-all route.
 */
export type ServerEntry = 'next' | 'api' | 'container';
const ENTRY_ARGUMENTS: Record<ServerEntry, string[]> = {
  next: [path.resolve('scripts/serve.mjs')],
  api: [path.resolve('scripts/serve-api.mjs')],
  container: ['--import', path.resolve('scripts/server-entry.mjs'), path.resolve('.next/standalone/server.js')],
};

export function startServer(options: {
  /** Omitted: a free port the system picks. Given: a restart on the same address, say. */
  port?: number;
  dataDir: string;
  env?: Record<string, string>;
  entry?: ServerEntry;
  /** false: no SEED_FILE, as a production start with nothing asked for (first-admin.spec.ts). */
  seed?: boolean;
}): Promise<RunningServer> {
  // The container pass (npm run test:e2e:container) is there for the image's command. A spec's own
  // `npm start` server would repeat the SQLite pass exactly there, so the tests that need one are
  // skipped in it; the run's shared server and a spec's apiServerEntry() ones are the container's.
  // Thrown here, before any await, so that a test expecting the start to fail is skipped too.
  if (options.entry === undefined && process.env.E2E_API_SERVER === 'container') {
    test.skip(true, 'its own npm start server: the same test as in the run on SQLite');
  }
  return launch(options);
}

async function launch(options: Parameters<typeof startServer>[0]): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  await assertPortFree(port);
  const seedFile = path.join(options.dataDir, 'seed.json');
  if (options.seed !== false && !fs.existsSync(seedFile)) writeSeedFile(options.dataDir);
  let output = '';
  // `npm start`'s server: the standalone output, as deployed (scripts/serve.mjs, Dockerfile).
  const child = spawn(process.execPath, ENTRY_ARGUMENTS[options.entry ?? 'next'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      // What Next's standalone server.js listens on (scripts/serve.mjs sets it from HOST).
      HOSTNAME: '127.0.0.1',
      DATA_DIR: options.dataDir,
      ...(options.seed !== false ? { SEED_FILE: seedFile } : {}),
      NEXT_TELEMETRY_DISABLED: '1',
      // Specs play clients at other addresses through X-Forwarded-For from 127.0.0.1, as through a
      // load balancer; requests from 127.0.0.2+ are direct callers whose headers are not believed.
      TRUSTED_PROXIES: '127.0.0.1',
      // The run's server database (global-setup, E2E_DATABASE_URL), unless the spec brings its own.
      ...(process.env.E2E_RUN_DATABASE_URL ? { DATABASE_URL: process.env.E2E_RUN_DATABASE_URL } : {}),
      // Every answer checked against its operation's declared responses (lib/http/answer-check.ts),
      // as in development: a mismatch answers 500 and logs api.answer_mismatch, which fails the run
      // (global-setup.ts). Production itself leaves the check off.
      API_CHECK_RESPONSES: 'true',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady(url, child, () => output);
  return {
    url,
    port,
    dataDir: options.dataDir,
    process: child,
    logs: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/** A port nothing listens on now, chosen by the system (for a spec's own servers and helpers). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A port already taken (another spec's server, running in the other worker) would otherwise pass
 * waitUntilReady: the other server answers, and the spec would silently test it instead of its own.
 */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(`port ${port} is in use (${error.code}): give this spec's server a port of its own`)),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

async function waitUntilReady(url: string, child: ChildProcess, logs: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs()}`);
    try {
      // Any answer from an API route means the server is up and the database opened (401 is fine).
      const response = await fetch(`${url}/api/v1/agendamentos/slots-livres`);
      if (response.status === 401) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server did not become ready:\n${logs()}`);
}
