import type { Knex } from 'knex';

/**
 * Everything this app assumes about knex beyond its documented query API, in one place, each held
 * by knex-internals.test.ts against the installed knex (run it after any knex upgrade: it fails if
 * one of these stops being true). The embedded database's hot path needs them: group commit runs
 * its statements on the pooled connection itself (direct-transaction.ts), and the connection keeps
 * its prepared statements (connection.ts).
 */

/**
 * A connection from knex's pool, and back (the Client's acquireConnection/releaseConnection, in
 * knex's type declarations though not its guide). On SQLite the pool holds one connection, so
 * every other query waits while it is out, as it waits for a knex transaction.
 */
type PoolClient = { acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): Promise<unknown> };

export async function acquirePooledConnection<C>(db: Knex): Promise<C> {
  return (await (db.client as PoolClient).acquireConnection()) as C;
}

export async function releasePooledConnection(db: Knex, connection: unknown): Promise<void> {
  await (db.client as PoolClient).releaseConnection(connection);
}

/** Marks a connection for knex's pool to destroy when it comes back, instead of handing it out again (knex's own mark). */
export function discardPooledConnection(connection: object, reason: unknown): void {
  (connection as { __knex__disposed?: unknown }).__knex__disposed = reason;
}

/**
 * knex's better-sqlite3 client prepares every statement through the connection's `prepare`, and a
 * transaction begins with exactly this text: connection.ts wraps `prepare` to cache statements and
 * to begin IMMEDIATE instead.
 */
export const KNEX_SQLITE_BEGIN = 'BEGIN;';

/** knex's pool (tarn.js, `client.pool`), for the metrics' pool gauge: what is in use, idle and waiting. */
type TarnPool = { numUsed(): number; numFree(): number; numPendingAcquires(): number };

export type PoolUsage = { used: number; free: number; pending: number };

export function poolUsage(db: Knex): PoolUsage | undefined {
  const pool = (db.client as { pool?: TarnPool }).pool;
  if (!pool) return undefined; // destroyed
  return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires() };
}
