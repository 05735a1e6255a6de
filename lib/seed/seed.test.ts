import { afterEach, describe, expect, it } from 'vitest';
import { env } from '@/lib/config/env';
import { loadSeed, usesDemoSeed } from './seed';
import { resetEnv } from '@/lib/testing/hooks';

/** Issue 27 §9: the public demo credentials are seeded only when asked for, and never onto a server database. */
describe('which seed a new database gets', () => {
  const saved = { ...process.env };
  const configure = (settings: Record<string, string | undefined>) => {
    for (const name of ['SEED_DEMO', 'SEED_FILE', 'DATABASE_URL']) delete process.env[name];
    Object.assign(process.env, settings);
    resetEnv();
  };
  afterEach(() => {
    process.env = { ...saved };
    resetEnv();
  });

  it('none when nothing asks for one: the embedded default of `npm start` and the container starts empty', () => {
    configure({});
    expect(loadSeed()).toBeUndefined();
    expect(usesDemoSeed()).toBe(false);
    configure({ SEED_DEMO: 'false' });
    expect(loadSeed()).toBeUndefined();
  });

  it('the demo when SEED_DEMO asks for it (the README’s start command)', () => {
    configure({ SEED_DEMO: 'true' });
    expect(loadSeed()?.staff.map((user) => user.email)).toContain('admin@clinica.exemplo.com.br');
    expect(loadSeed()?.apiClients.map((client) => client.clientId)).toEqual(['portal-parceiro', 'app-corretora', 'avaliacao-saude']);
    expect(usesDemoSeed()).toBe(true);
  });

  it('refuses SEED_DEMO with a server database or beside a seed file, naming it', () => {
    configure({ SEED_DEMO: 'true', DATABASE_URL: 'postgres://u:p@db:5432/app' });
    expect(() => env()).toThrow(/SEED_DEMO: is for the embedded default only: unset it with DATABASE_URL/);
    configure({ SEED_DEMO: 'true', SEED_FILE: '/tmp/seed.json' });
    expect(() => env()).toThrow(/SEED_DEMO: and SEED_FILE exclude each other/);
    configure({ SEED_DEMO: 'sim' });
    expect(() => env()).toThrow(/SEED_DEMO/);
  });
});
