import { expect, test } from '@playwright/test';
import { newDataDir, startServer } from '../support/server';

/** Configuration is validated when the server starts: a bad setting stops it, naming the variable. */
test('a bad setting stops the server at start with a message naming it, and no secret', async () => {
  const error = await startServer({
    dataDir: newDataDir('bad-config'),
    env: { SCHEDULING_BACKEND: 'oracle', ORACLE_PROCEDURE: 'PKG.PROC; DROP TABLE X', ORACLE_PASSWORD: 'senha-que-nao-aparece' },
  }).catch((e: unknown) => e);
  const text = String(error);
  expect(text).toContain('server exited early');
  expect(text).toMatch(/ORACLE_PROCEDURE: must be a plain identifier/);
  expect(text).toMatch(/ORACLE_CONNECT_STRING: is required when SCHEDULING_BACKEND=oracle/);
  expect(text).not.toContain('senha-que-nao-aparece');
});

/** The public demo credentials are for the embedded default: asked for beside a server database, the start stops. */
test('SEED_DEMO with DATABASE_URL or SEED_FILE stops the server at start, naming it', async () => {
  const withDatabase = await startServer({
    dataDir: newDataDir('demo-on-server-db'),
    seed: false,
    env: { SEED_DEMO: 'true', DATABASE_URL: 'postgres://ninguem:senha-que-nao-aparece@127.0.0.1:1/nada' },
  }).catch((e: unknown) => e);
  expect(String(withDatabase)).toMatch(/SEED_DEMO: is for the embedded default only: unset it with DATABASE_URL/);
  expect(String(withDatabase)).not.toContain('senha-que-nao-aparece');
  const withSeedFile = await startServer({ dataDir: newDataDir('demo-and-seed-file'), env: { SEED_DEMO: 'true', DATABASE_URL: '' } }).catch(
    (e: unknown) => e,
  );
  expect(String(withSeedFile)).toMatch(/SEED_DEMO: and SEED_FILE exclude each other: set one/);
});
