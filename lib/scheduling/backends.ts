import 'server-only';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db';
import type { SchedulingBackend } from './backend';
import { EmbeddedScheduler } from './embedded-scheduler';

/** The configured scheduling back-end, created once per process. */
const holder = globalThis as typeof globalThis & { __schedulingBackend?: SchedulingBackend };

export function schedulingBackend(): SchedulingBackend {
  holder.__schedulingBackend ??= createBackend();
  return holder.__schedulingBackend;
}

function createBackend(): SchedulingBackend {
  const { SCHEDULING_BACKEND } = env();
  switch (SCHEDULING_BACKEND) {
    case 'embedded':
      return new EmbeddedScheduler(getDb);
    case 'oracle':
      throw new Error('SCHEDULING_BACKEND=oracle is not available in this build yet.');
  }
}
