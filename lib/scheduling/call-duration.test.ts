import { afterEach, describe, expect, it } from 'vitest';
import { env } from '@/lib/config/env';
import { IN_FLIGHT_TIMEOUT_MS, inFlightTimeoutFor } from '@/lib/idempotency/constants';
import { EMBEDDED_MAX_CALL_MS, maxReservationCallMs } from './call-duration';
import { resetEnv } from '@/lib/testing/hooks';

/** The idempotency in-flight timeout follows the configured back-end's longest possible call. */
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnv();
});

function oracleEnv(vars: Record<string, string> = {}) {
  for (const key of Object.keys(process.env)) if (key.startsWith('ORACLE_') || key === 'SCHEDULING_BACKEND') delete process.env[key];
  Object.assign(process.env, {
    SCHEDULING_BACKEND: 'oracle',
    ORACLE_CONNECT_STRING: 'db.hospital.local:1521/TASYPRD',
    ORACLE_USER: 'integracao',
    ORACLE_PASSWORD: 'segredo',
    ORACLE_PROCEDURE: 'TASY.AGENDA_PCK.RESERVAR_HORARIO',
    ...vars,
  });
  resetEnv();
  return env();
}

describe('in-flight timeout of a reservation key', () => {
  it('outlasts the longest Oracle call the settings allow: queue wait + connect + call, plus a margin', () => {
    const slowest = oracleEnv({
      ORACLE_QUEUE_TIMEOUT_MS: '600000',
      ORACLE_CALL_TIMEOUT_MS: '600000',
      ORACLE_CONNECT_TIMEOUT_SECONDS: '120',
    });
    const maxCall = maxReservationCallMs(slowest);
    expect(maxCall).toBe(600_000 + 120_000 + 600_000);
    expect(inFlightTimeoutFor(maxCall)).toBeGreaterThan(maxCall);
    expect(inFlightTimeoutFor(maxCall)).toBeGreaterThan(IN_FLIGHT_TIMEOUT_MS);
  });

  it('keeps the 60 s floor for the defaults and the embedded scheduler, and still exceeds their worst case', () => {
    const defaults = maxReservationCallMs(oracleEnv()); // 5 s queue + 10 s connect + 20 s call
    expect(defaults).toBe(35_000);
    expect(inFlightTimeoutFor(defaults)).toBe(65_000);
    expect(maxReservationCallMs({ oracle: undefined })).toBe(EMBEDDED_MAX_CALL_MS);
    expect(inFlightTimeoutFor(EMBEDDED_MAX_CALL_MS)).toBe(IN_FLIGHT_TIMEOUT_MS);
  });
});
