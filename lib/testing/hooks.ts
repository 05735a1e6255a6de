import type { DestinationStream, Logger } from 'pino';
import type { AppEnv } from '@/lib/config/env';
import { createLogger } from '@/lib/log';

/**
 * What unit tests change in the process that production never does, kept out of the production
 * modules: each reaches the slot its module keeps on globalThis. (A scheduling back-end of a test's
 * own is put in place with vi.mock of lib/scheduling/backends.ts.)
 */
const holder = globalThis as typeof globalThis & { __integrationConsoleEnv?: AppEnv; __integrationConsoleLogger?: Logger };

/** Settings are parsed again, from the process.env the test has just changed (lib/config/env.ts). */
export function resetEnv(): void {
  holder.__integrationConsoleEnv = undefined;
}

/** Log lines go to `destination` (undefined: standard output again), for tests that read what was logged (lib/log.ts). */
export function logTo(destination: DestinationStream | undefined): void {
  holder.__integrationConsoleLogger = createLogger(destination);
}
