import 'server-only';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import type { SchedulingBackend } from './backend';
import { EmbeddedScheduler } from './embedded/scheduler';
import { OracleScheduler } from './oracle/oracle-scheduler';
import { schedulingPool } from './oracle/pool';

/**
 * The configured scheduling back-end, created once per copy of this module. Not on globalThis,
 * unlike the connection pools: Next bundles server components and route handlers separately, each
 * with its own copy of lib/, and a back-end made by one copy hands its transactions and errors to
 * the other copy's service, whose instanceof checks then fail (a console page that listed slots
 * broke every reservation after it). What must be one per process is the pools (lib/db/handle.ts,
 * oracle/pool.ts), and they are.
 */
let backend: SchedulingBackend | undefined;

export function schedulingBackend(): SchedulingBackend {
  backend ??= createBackend();
  return backend;
}

function createBackend(): SchedulingBackend {
  const { SCHEDULING_BACKEND, oracle, RESERVATION_HOLD_MINUTES, MAX_DURATION_FACTOR } = env();
  switch (SCHEDULING_BACKEND) {
    case 'embedded':
      return new EmbeddedScheduler(getDb, Date.now, { holdMinutes: RESERVATION_HOLD_MINUTES, maxDurationFactor: MAX_DURATION_FACTOR });
    case 'oracle':
      if (!oracle) throw new Error('SCHEDULING_BACKEND=oracle without Oracle settings'); // env() guarantees them
      return new OracleScheduler(oracle, () => schedulingPool(oracle));
  }
}
