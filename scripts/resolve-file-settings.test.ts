import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveFileSettings } from './resolve-file-settings.mjs';

/** Next's standalone server.js changes into .next/standalone, so the server commands resolve paths first. */
describe('paths in the settings', () => {
  const places = { cwd: '/home/ana/onde-rodou', projectRoot: '/srv/integration-console' };

  it('puts the data in the project’s .data when DATA_DIR is unset or empty, never under .next', () => {
    for (const environment of [{}, { DATA_DIR: '' }] as Record<string, string | undefined>[]) {
      resolveFileSettings(environment, places);
      expect(environment.DATA_DIR).toBe(path.join(places.projectRoot, '.data'));
    }
  });

  it('reads relative paths the user gave against the directory the command started in; absolute ones stay', () => {
    const environment: Record<string, string | undefined> = {
      DATA_DIR: 'dados',
      SEED_FILE: '../seed.json',
      ORACLE_CONFIG_DIR: '/etc/oracle',
      ORACLE_WALLET_LOCATION: '',
      PORT: '3000',
    };
    resolveFileSettings(environment, places);
    expect(environment).toEqual({
      DATA_DIR: '/home/ana/onde-rodou/dados',
      SEED_FILE: '/home/ana/seed.json',
      ORACLE_CONFIG_DIR: '/etc/oracle',
      ORACLE_WALLET_LOCATION: '', // empty means unset (lib/config/env.ts): left for the default
      PORT: '3000',
    });
  });
});
