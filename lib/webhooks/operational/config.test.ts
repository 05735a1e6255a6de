import { afterEach, describe, expect, it } from 'vitest';
import { env } from '@/lib/config/env';
import { resetEnv } from '@/lib/testing/hooks';

/** OPERATIONAL_WEBHOOK_URL follows the receiver URL rules, relaxed only by the development settings. */
describe('OPERATIONAL_WEBHOOK_URL', () => {
  const keys = ['OPERATIONAL_WEBHOOK_URL', 'WEBHOOK_ALLOW_HTTP', 'WEBHOOK_ALLOW_PRIVATE_TARGETS'] as const;
  const saved = Object.fromEntries(keys.map((key) => [key, process.env[key]]));
  afterEach(() => {
    for (const key of keys) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
    resetEnv();
  });
  const load = (settings: Partial<Record<(typeof keys)[number], string>>) => {
    for (const key of keys) delete process.env[key];
    Object.assign(process.env, settings);
    resetEnv();
    return () => env();
  };

  it('accepts an https receiver, and is unset by default', () => {
    expect(load({})().OPERATIONAL_WEBHOOK_URL).toBeUndefined();
    expect(load({ OPERATIONAL_WEBHOOK_URL: 'https://incidentes.hospital.exemplo/ganchos' })().OPERATIONAL_WEBHOOK_URL).toBe(
      'https://incidentes.hospital.exemplo/ganchos',
    );
  });

  it('refuses plain http, a private target or credentials, naming the setting; the development relaxations allow the first two', () => {
    expect(load({ OPERATIONAL_WEBHOOK_URL: 'http://incidentes.hospital.exemplo/' })).toThrow(/OPERATIONAL_WEBHOOK_URL: .*urlHttpsRequired/);
    expect(load({ OPERATIONAL_WEBHOOK_URL: 'https://10.0.0.5/' })).toThrow(/OPERATIONAL_WEBHOOK_URL: .*urlPrivateTarget/);
    expect(load({ OPERATIONAL_WEBHOOK_URL: 'https://u:p@incidentes.hospital.exemplo/' })).toThrow(/OPERATIONAL_WEBHOOK_URL/);
    const relaxed = load({
      OPERATIONAL_WEBHOOK_URL: 'http://127.0.0.1:4000/ops',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    });
    expect(relaxed().OPERATIONAL_WEBHOOK_URL).toBe('http://127.0.0.1:4000/ops');
  });
});
