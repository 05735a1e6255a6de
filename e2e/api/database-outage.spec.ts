import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiPath, routes } from '@/lib/api/routes';
import { bearer, tokenFor } from '../support/api';
import { adminDatabaseUrl } from '../support/databases';
import { freePort, newDataDir, startServer, type RunningServer } from '../support/server';
import { TENANT_A, TENANT_B, WEBHOOK_IDS } from '../support/test-seed';

/**
 * The app database restarts under a running server (issue 18): while it is down the API answers 503
 * problem+json with Retry-After (never a 500, never the driver's text), readiness fails and liveness
 * stays up; once it is back the same requests work without restarting the server. The spec runs a
 * PostgreSQL server of its own (Debian's binaries, on 127.0.0.1), since stopping the shared one would
 * stop every other spec's database: so it runs once, in the run on SQLite.
 */
const binDir = fs.existsSync('/usr/lib/postgresql')
  ? fs
      .readdirSync('/usr/lib/postgresql')
      .sort((a, b) => Number(b) - Number(a))
      .map((version) => path.join('/usr/lib/postgresql', version, 'bin'))
      .find((dir) => fs.existsSync(path.join(dir, 'pg_ctl')))
  : undefined;

test.skip(!!adminDatabaseUrl(), 'runs once, in the run on SQLite: it brings a PostgreSQL server of its own');
test.skip(!binDir, 'needs the PostgreSQL server binaries (Debian package postgresql; scripts/test-all.sh installs it)');

/** PostgreSQL refuses to run as root: the cluster belongs to the `postgres` user when the run is root's. */
function asPostgres(command: string, args: string[]) {
  const root = process.getuid?.() === 0;
  execFileSync(root ? 'runuser' : command, root ? ['-u', 'postgres', '--', command, ...args] : args, { stdio: 'pipe', timeout: 60_000 });
}

test('while the database restarts the API answers 503 with Retry-After, readiness fails, liveness stays; then it recovers', async ({
  playwright,
}) => {
  test.setTimeout(90_000);
  const pgPort = await freePort();
  const cluster = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-e2e-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', cluster]);
  const pgCtl = path.join(binDir!, 'pg_ctl');
  const options = `-p ${pgPort} -k ${cluster} -c listen_addresses=127.0.0.1 -c fsync=off`;
  asPostgres(path.join(binDir!, 'initdb'), ['-D', path.join(cluster, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const startPostgres = () =>
    asPostgres(pgCtl, ['-D', path.join(cluster, 'data'), '-o', options, '-l', path.join(cluster, 'log'), '-w', 'start']);
  let server: RunningServer | undefined;
  try {
    startPostgres();
    server = await startServer({
      dataDir: newDataDir('outage'),
      env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/postgres` },
    });
    const api = await playwright.request.newContext({ baseURL: server.url });
    const auth = bearer(await tokenFor(api, TENANT_A));
    const configPath = apiPath(routes.getWebhookConfiguration, { id: WEBHOOK_IDS.a1 });
    expect((await api.get(configPath, { headers: auth })).status()).toBe(200);
    // A token not used before the outage: checking that its client is still active needs the
    // database, and a database away is the server's trouble (503), never a refused token (401).
    const unusedToken = bearer(await tokenFor(api, TENANT_B));

    asPostgres(pgCtl, ['-D', path.join(cluster, 'data'), '-m', 'fast', '-w', 'stop']);
    for (const response of [
      await api.get(configPath, { headers: auth }),
      await api.put(configPath, { headers: auth, data: { url: 'https://durante-a-queda.exemplo.com.br/hooks' } }),
      await api.get(apiPath(routes.listWebhookConfigurations), { headers: unusedToken }),
    ]) {
      expect(response.status()).toBe(503);
      expect(response.headers()['content-type']).toContain('application/problem+json');
      expect(response.headers()['retry-after']).toBe('5');
      const text = await response.text();
      expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres|knex|at \w+ \(/i);
    }
    expect((await api.get(apiPath(routes.liveness))).status()).toBe(200);
    const ready = await api.get(apiPath(routes.readiness));
    expect(ready.status()).toBe(503);
    expect(((await ready.json()) as { verificacoes: { bancoDeDados: { ok: boolean } } }).verificacoes.bancoDeDados.ok).toBe(false);

    startPostgres();
    await expect.poll(async () => (await api.get(configPath, { headers: auth })).status(), { timeout: 20_000 }).toBe(200);
    // Nothing of the PUT refused during the outage was written.
    expect(((await (await api.get(configPath, { headers: auth })).json()) as { url: string }).url).not.toContain('durante-a-queda');
    expect((await api.get(apiPath(routes.readiness))).status()).toBe(200);
    await expect.poll(() => server!.logs()).toContain('"event":"api.database_unavailable"');
    expect(server.logs()).not.toContain('"event":"api.unhandled_error"');
    await api.dispose();
  } finally {
    await server?.stop();
    try {
      asPostgres(pgCtl, ['-D', path.join(cluster, 'data'), '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
    fs.rmSync(cluster, { recursive: true, force: true });
  }
});
