import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeDb } from '@/lib/db/handle';
import { readiness } from './readiness';
import { resetEnv } from '@/lib/testing/hooks';

/** Readiness through the real database drivers: a working SQLite file, a refused PostgreSQL server. */
function configure(vars: Record<string, string | undefined>) {
  Object.assign(process.env, { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'ic-ready-')), LOG_SILENT: 'true', ...vars });
  for (const [key, value] of Object.entries(vars)) if (value === undefined) delete process.env[key];
  resetEnv();
}

afterEach(async () => {
  await closeDb().catch(() => undefined);
});

describe('readiness', () => {
  it('is ready when the database and the embedded scheduler answer, with timings', async () => {
    configure({ DATABASE_URL: undefined });
    expect(await readiness()).toEqual({
      ready: true,
      verificacoes: {
        bancoDeDados: { ok: true, ms: expect.any(Number), dialeto: 'sqlite' },
        agendamento: { ok: true, ms: expect.any(Number), sistema: 'embedded' },
      },
    });
  });

  it('is not ready when the database refuses connections, and names the error by code only', async () => {
    configure({ DATABASE_URL: 'postgres://postgres:segredo@127.0.0.1:3594/nada' });
    // The migration lock's own session (lib/db/migration-lock.ts) meets the refusal first, so knex
    // never tries, and its logger would have printed the connection it could not make: nothing is.
    const printed: string[] = [];
    const print = vi.spyOn(console, 'log').mockImplementation((message: unknown) => void printed.push(String(message)));
    const result = await readiness().finally(() => print.mockRestore());
    expect(printed).toEqual([]);
    expect(result.ready).toBe(false);
    expect(result.verificacoes.bancoDeDados).toEqual({ ok: false, ms: expect.any(Number), erro: 'ECONNREFUSED' });
    expect(JSON.stringify(result)).not.toContain('segredo');
  });
});
