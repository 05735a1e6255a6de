/**
 * Whether a database error means the database cannot be reached right now (restarting, failing
 * over, refusing connections, no connection to be had) rather than that the statement was wrong.
 * The API answers such errors 503 with Retry-After (lib/http/route.ts): the caller may try again,
 * and the same request will work once the database is back. Codes only: driver texts name hosts.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** PostgreSQL: too many connections, shutting down, starting up (SQLSTATE 53300, 57P01–57P03). */
const POSTGRES_CODES = new Set(['53300', '57P01', '57P02', '57P03']);

/** node-oracledb: connection refused, broken or lost, listener or service unknown, pool busy. */
const ORACLE_CODES = new Set([
  'NJS-040',
  'NJS-500',
  'NJS-501',
  'NJS-503',
  'NJS-510',
  'NJS-521',
  'DPI-1080',
  'ORA-03113',
  'ORA-03114',
  'ORA-03135',
  'ORA-12514',
  'ORA-12541',
  'ORA-12170',
  'ORA-01089',
  'ORA-01033',
  'ORA-01034',
]);

/** SQLite: another writer held the file past the busy timeout. */
const SQLITE_CODES = new Set(['SQLITE_BUSY']);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, name } = error as { code?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true; // no pooled connection within acquireConnectionTimeout
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code) || ORACLE_CODES.has(code) || SQLITE_CODES.has(code)) return true;
    if (code.startsWith('08')) return true; // PostgreSQL's connection exception class
  }
  // pg's own words for a connection that died under a query; it sets no code.
  if (/^Connection terminated( unexpectedly)?$/.test(error.message)) return true;
  const oracle = /^((?:NJS|ORA|DPI)-\d+)/.exec(error.message)?.[1];
  return oracle !== undefined && ORACLE_CODES.has(oracle);
}

/** The code to log for it (never the message). */
export function unavailabilityCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_-]{1,20}$/i.test(code)) return code;
  return error instanceof Error ? error.name : 'unknown';
}
