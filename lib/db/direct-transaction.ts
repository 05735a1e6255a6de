import type { Knex } from 'knex';
import { SQLITE_BEGIN } from './connection';
import { dialectOf } from './dialect';

/**
 * A write transaction on the embedded SQLite database that runs its statements on the connection
 * itself, without knex's transaction machinery, which cost about 0.4 ms of CPU per transaction:
 * more than the statements and the durable commit together. Used by the hot path only (a
 * reservation: lib/scheduling), through precompiled queries (precompiled.ts).
 *
 * The connection is taken from knex's pool (one connection: every other query waits, exactly as it
 * waits for a knex transaction) and the transaction begins IMMEDIATE, taking the write lock first,
 * as knex's do on SQLite (see cachePreparedStatements in connection.ts for why). Server databases use a knex transaction.
 */
type SqliteStatement = { reader: boolean; all(bindings: unknown[]): unknown[]; run(bindings: unknown[]): { changes: number } };
type SqliteConnection = {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  inTransaction: boolean;
  /** knex's own mark: its pool destroys a marked connection instead of handing it out again. */
  __knex__disposed?: unknown;
};
type PoolClient = { acquireConnection(): Promise<unknown>; releaseConnection(connection: unknown): Promise<void> };

export class DirectSqliteTransaction {
  constructor(
    private readonly connection: SqliteConnection,
    /** Only to build (never run) precompiled queries in this dialect. */
    readonly knex: Knex,
  ) {}

  /** A SELECT's rows, or a write's `{ changes }`, as knex's better-sqlite3 client answers raw SQL. */
  execute(sql: string, bindings: unknown[]): unknown {
    const statement = this.connection.prepare(sql);
    const values = bindings.map((value) => (typeof value === 'boolean' ? Number(value) : value));
    return statement.reader ? statement.all(values) : statement.run(values);
  }
}

/**
 * Runs `work` in one write transaction: a direct one on SQLite, a knex one elsewhere. Commits when
 * `work` resolves, rolls back when it throws.
 */
export async function fastWriteTransaction<T>(db: Knex, work: (tx: DirectSqliteTransaction | Knex.Transaction) => Promise<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite') return db.transaction((trx) => work(trx));
  const pool = db.client as PoolClient;
  const connection = (await pool.acquireConnection()) as SqliteConnection;
  try {
    connection.exec(SQLITE_BEGIN);
    try {
      const result = await work(new DirectSqliteTransaction(connection, db));
      connection.exec('COMMIT');
      return result;
    } catch (error) {
      if (connection.inTransaction) {
        try {
          connection.exec('ROLLBACK');
        } catch (rollbackError) {
          // Left inside a transaction, the pool's only connection would fail every later BEGIN.
          connection.__knex__disposed = rollbackError;
        }
      }
      throw error;
    }
  } finally {
    await pool.releaseConnection(connection);
  }
}
