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
