import type { AppEnv } from '@/lib/config/env';
import type { OracleSchedulingConfig } from '@/lib/config/oracle';

/**
 * The longest one reservation call may run with the configured back-end. An idempotency key must
 * stay "in flight" at least this long: a retry that took the key over while the first call still
 * ran would run the procedure twice.
 */

/** Embedded: a pool connection (acquireConnectionTimeout 15 s, SQLite busy_timeout 5 s) and a short transaction. */
export const EMBEDDED_MAX_CALL_MS = 30_000;

/** Oracle: waiting for a pool connection, opening one if the pool grows, then the call's one round trip. */
function oracleMaxCallMs(config: Pick<OracleSchedulingConfig, 'queueTimeoutMs' | 'connectTimeoutSeconds' | 'callTimeoutMs'>): number {
  return config.queueTimeoutMs + config.connectTimeoutSeconds * 1000 + config.callTimeoutMs;
}

export function maxReservationCallMs(appEnv: Pick<AppEnv, 'oracle'>): number {
  return appEnv.oracle ? oracleMaxCallMs(appEnv.oracle) : EMBEDDED_MAX_CALL_MS;
}
