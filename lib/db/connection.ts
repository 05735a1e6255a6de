import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { env } from '@/lib/config/env';
import { KNEX_SQLITE_BEGIN } from './knex-internals';

/** Knex configuration for the configured database: DATABASE_URL, or the embedded SQLite file. */
export function knexConfig(): Knex.Config {
  const { DATABASE_URL, DATABASE_POOL_MAX, dataDir } = env();
  if (DATABASE_URL) return serverDatabaseConfig(DATABASE_URL, DATABASE_POOL_MAX);

  fs.mkdirSync(dataDir, { recursive: true });
  const filename = path.join(dataDir, 'integration-console.sqlite');
  // Owner-only: the file holds staff and client credentials' hashes and reservations. SQLite gives
  // its -wal and -shm files the database file's permissions, so creating this one 0600 covers them.
  fs.closeSync(fs.openSync(filename, 'a', 0o600));
  fs.chmodSync(filename, 0o600);
  return {
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // One connection: SQLite has a single writer, and one connection makes every transaction
    // serial within the process, which the scheduler's rules rely on.
    pool: {
      min: 1,
      max: 1,
      afterCreate(connection: SqliteConnection, done: (error: Error | null, connection: unknown) => void) {
        cachePreparedStatements(connection);
        connection.pragma('journal_mode = WAL');
        // FULL: an answered reservation is on disk before the response leaves, even on power loss.
        connection.pragma('synchronous = FULL');
        connection.pragma('busy_timeout = 5000');
        // SQLite's own page cache is 2 MB by default: with a long delivery history the indexes the
        // health and triage reads probe (a few pages per configuration) no longer fit, and each
        // probe reads its pages again from the OS (issue 45 §6: 1M deliveries). 64 MB at most, used
        // only as the file grows.
        connection.pragma('cache_size = -65536');
        done(null, connection);
      },
    },
  };
}

type SqliteConnection = { pragma(sql: string): unknown; prepare(sql: string): unknown };

/**
 * knex prepares every statement it runs again, each time (about a tenth of a reservation's CPU).
 * The connection keeps its prepared statements by SQL text instead: better-sqlite3 statements are
 * synchronous, so one is never used by two queries at once. Bounded: knex's SQL has its values as
 * bindings, so the set of texts is small, but a caller building SQL with literals cannot grow it.
 *
 * knex's transactions also start here, and they start IMMEDIATE. knex's plain `BEGIN` is deferred:
 * a transaction that reads and then writes fails at once with SQLITE_BUSY when another connection
 * to the file (the lean API server beside `npm start`, an operator's tool) wrote in between,
 * whatever busy_timeout says. Taking the write lock first makes it wait for the other writer
 * instead. Within one process it changes nothing: the single connection serialises transactions.
 */
const STATEMENT_CACHE_SIZE = 500;
export const SQLITE_BEGIN = 'BEGIN IMMEDIATE';
function cachePreparedStatements(connection: SqliteConnection): void {
  const prepare = connection.prepare.bind(connection);
  const statements = new Map<string, unknown>();
  connection.prepare = (text: string) => {
    const sql = text === KNEX_SQLITE_BEGIN ? SQLITE_BEGIN : text;
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };
}

function serverDatabaseConfig(url: string, poolMax: number): Knex.Config {
  const parsed = new URL(url);
  // Fixed-size pools: a server database is shared by every instance, so each takes a known share.
  const pool = { min: 0, max: poolMax };
  if (parsed.protocol === 'postgres:' || parsed.protocol === 'postgresql:') {
    // connectionTimeoutMillis: an unreachable server fails the request instead of hanging it.
    return { client: 'pg', connection: { connectionString: url, connectionTimeoutMillis: 10_000 }, pool, acquireConnectionTimeout: 15_000 };
  }
  if (parsed.protocol === 'oracle:') {
    return {
      client: 'oracledb',
      connection: {
        user: decodeURIComponent(parsed.username),
        password: decodeURIComponent(parsed.password),
        connectString: oracleConnectString(parsed),
      },
      // Text columns are CLOBs on Oracle; read them as strings like the other databases answer.
      fetchAsString: ['clob'],
      pool,
      acquireConnectionTimeout: 15_000,
    } as Knex.Config;
  }
  throw new Error('DATABASE_URL must start with postgres://, postgresql:// or oracle://');
}

/**
 * `oracle://user:pw@host:1521/service?…` as an Easy Connect string. Knex passes only the connect
 * string to node-oracledb, so the timeouts ride in it: without connect_timeout a listener that
 * accepts and never answers would hang the first query forever.
 */
function oracleConnectString(parsed: URL): string {
  const params = new URLSearchParams(parsed.search);
  if (!params.has('connect_timeout')) params.set('connect_timeout', '10');
  if (!params.has('transport_connect_timeout')) params.set('transport_connect_timeout', '5');
  if (!params.has('expire_time')) params.set('expire_time', '2');
  return `${parsed.host}${parsed.pathname}?${params.toString()}`;
}

export function createKnex(): Knex {
  return knex(knexConfig());
}
