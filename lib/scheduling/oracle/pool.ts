import 'server-only';
import oracledb, { type Pool } from 'oracledb';
import { log } from '@/lib/log';
import type { OracleSchedulingConfig } from '@/lib/config/oracle';
import { oracleErrorFields } from './failures';

/**
 * The scheduling back-end's connection pool: created once per process and kept on globalThis, so a
 * dev-mode hot reload reuses it instead of leaking one pool per reload. Fixed size (poolMin =
 * poolMax): every instance holds a known share of the database's sessions and never pays a
 * connection set-up inside a request.
 */
const holder = globalThis as typeof globalThis & {
  __oracleSchedulingPool?: Promise<Pool>;
  __oracleThickInitialized?: boolean;
  __oracleDrainRegistered?: boolean;
};

export function schedulingPool(config: OracleSchedulingConfig): Promise<Pool> {
  holder.__oracleSchedulingPool ??= createPool(config).catch((error: unknown) => {
    holder.__oracleSchedulingPool = undefined; // the next request tries again
    throw error;
  });
  return holder.__oracleSchedulingPool;
}

/** The node-oracledb pool attributes for a configuration (exported for its unit test). */
function poolAttributes(config: OracleSchedulingConfig): Record<string, unknown> {
  return {
    ...(config.externalAuth ? { externalAuth: true } : { user: config.user, password: config.password }),
    connectString: config.connectString,
    ...(config.walletLocation ? { walletLocation: config.walletLocation } : {}),
    ...(config.walletPassword ? { walletPassword: config.walletPassword } : {}),
    ...(config.configDir ? { configDir: config.configDir } : {}),
    poolMin: config.poolSize,
    poolMax: config.poolSize,
    poolIncrement: 0,
    // Always set: a listener that accepts and never answers would otherwise hang getConnection.
    connectTimeout: config.connectTimeoutSeconds,
    transportConnectTimeout: config.connectTimeoutSeconds,
    queueTimeout: config.queueTimeoutMs,
    queueMax: config.queueMax,
    // Keepalive probes, so a firewall dropping idle sessions is noticed before a request uses one.
    expireTime: config.expireTimeMinutes,
    poolPingInterval: 60,
    stmtCacheSize: 20,
  };
}

async function createPool(config: OracleSchedulingConfig): Promise<Pool> {
  if (config.clientMode === 'thick' && !holder.__oracleThickInitialized) {
    // Thick mode (Oracle Client libraries) reaches databases Thin mode cannot: before 12.1, or
    // with native network encryption. It must be chosen before the first connection.
    oracledb.initOracleClient({
      ...(config.clientLibDir ? { libDir: config.clientLibDir } : {}),
      ...(config.configDir ? { configDir: config.configDir } : {}),
    });
    holder.__oracleThickInitialized = true;
  }
  const pool = await oracledb.createPool(poolAttributes(config));
  log.info('scheduling.oracle_pool_created', { size: config.poolSize, mode: oracledb.thin ? 'thin' : 'thick' });
  drainOnSigterm(config.drainSeconds);
  return pool;
}

/**
 * On SIGTERM, stop handing out connections and close the pool once calls in flight have returned
 * (at most drainSeconds). The app's shutdown (lib/shutdown.ts) waits for open requests before it
 * exits, so calls in progress finish and are answered.
 */
function drainOnSigterm(drainSeconds: number): void {
  if (holder.__oracleDrainRegistered) return;
  holder.__oracleDrainRegistered = true;
  process.once('SIGTERM', () => {
    // The closing pool stays in place: later requests get NJS-064 (unreachable → 500, Retry-After)
    // instead of opening a new pool on the way out.
    void holder.__oracleSchedulingPool
      ?.then((pool) => pool.close(drainSeconds))
      .then(() => log.info('scheduling.oracle_pool_closed'))
      .catch((error: unknown) => log.warn('scheduling.oracle_pool_close_failed', oracleErrorFields(error)));
  });
}
