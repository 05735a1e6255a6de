import 'server-only';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/data';
import type { SchedulingBackend } from './backend';
import { EmbeddedScheduler } from './embedded-scheduler';
import { OracleScheduler } from './oracle/oracle-scheduler';
import { schedulingPool } from './oracle/pool';

/** The configured scheduling back-end, created once per process. */
const holder = globalThis as typeof globalThis & { __schedulingBackend?: SchedulingBackend };

export function schedulingBackend(): SchedulingBackend {
  holder.__schedulingBackend ??= createBackend();
  return holder.__schedulingBackend;
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
