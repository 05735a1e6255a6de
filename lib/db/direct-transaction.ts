import { context, type Context } from '@opentelemetry/api';
import type { Knex } from 'knex';
import { SQLITE_BEGIN } from './connection';
import { acquirePooledConnection, discardPooledConnection, releasePooledConnection } from './knex-internals';
import { dialectOf } from './dialect';
import { inStatementSpan } from './query-spans';

/**
 * A write transaction on the embedded SQLite database that runs its statements on the connection
 * itself, without knex's transaction machinery, which cost about 0.4 ms of CPU per transaction:
 * more than the statements and the durable commit together. Used by the hot paths only (a
 * reservation: lib/scheduling; a delivery's outcome: lib/webhooks/delivery/store/outcomes.ts),
 * through precompiled queries (precompiled.ts).
 *
 * The connection is taken from knex's pool (one connection: every other query waits, exactly as it
 * waits for a knex transaction) and the transaction begins IMMEDIATE, taking the write lock first,
 * as knex's do on SQLite (see cachePreparedStatements in connection.ts for why). Server databases use a knex transaction.
 */
type SqliteStatement = {
  reader: boolean;
  all(bindings: unknown[]): unknown[];
  get(bindings: unknown[]): unknown;
  run(bindings: unknown[]): { changes: number };
};
type SqliteConnection = {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): void;
  inTransaction: boolean;
};

export class DirectSqliteTransaction {
  constructor(
    private readonly connection: SqliteConnection,
    /** Only to build (never run) precompiled queries in this dialect. */
    readonly knex: Knex,
  ) {}

  /** A SELECT's rows, or a write's `{ changes }`, as knex's better-sqlite3 client answers raw SQL. */
  execute(sql: string, bindings: unknown[]): unknown {
    const statement = this.statement(sql);
    const values = sqliteValues(bindings);
    return inStatementSpan(sql, () => (statement.reader ? statement.all(values) : statement.run(values)));
  }

  /** A SELECT's first row (undefined: none), without collecting the others. */
  first(sql: string, bindings: unknown[]): unknown {
    const statement = this.statement(sql);
    const values = sqliteValues(bindings);
    return inStatementSpan(sql, () => statement.get(values));
  }

  private statement(sql: string): SqliteStatement {
    // Once SQLite has ended the transaction on an error of its own (I/O, disk full), a further write
    // would commit by itself, outside the batch that is about to fail: refuse it.
    if (!this.connection.inTransaction) throw new GroupCommitFailed('the transaction has ended');
    return this.connection.prepare(sql);
  }
}

/** better-sqlite3 binds no booleans: SQLite stores them as 0 and 1. */
function sqliteValues(bindings: unknown[]): unknown[] {
  return bindings.some((value) => typeof value === 'boolean')
    ? bindings.map((value) => (typeof value === 'boolean' ? Number(value) : value))
    : bindings;
}

/**
 * A statement without rows that every work of a batch runs (SAVEPOINT, RELEASE): prepared, so the
 * pool's connection (connection.ts) keeps it, where `exec` would compile its text again each time.
 */
function runStatement(connection: SqliteConnection, sql: string): void {
  connection.prepare(sql).run([]);
}

type Work<T> = (tx: DirectSqliteTransaction | Knex.Transaction) => Promise<T>;

/** The batch's commit failed, or another work's failure took the whole transaction down with it. */
export class GroupCommitFailed extends Error {
  override name = 'GroupCommitFailed';
}

type Waiting = {
  work: Work<unknown>;
  /**
   * The trace context of the operation that asked: the batch runs in the first one's, and each
   * work's statements belong in its own operation's trace (query-spans.ts).
   */
  caller: Context;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** How the work itself ended, once it has run in the batch's transaction. */
  ran?: { ok: true; value: unknown } | { ok: false; error: unknown };
};

/**
 * Group commit on the embedded database. Works that arrive in the same turn of the event loop run
 * one after another in one SQLite transaction, each inside a savepoint of its own, and share its
 * one durable COMMIT (one fsync, about 0.5 ms here, during which better-sqlite3 blocks the process).
 * - A work that throws (its own exception, or a statement error such as a constraint) is rolled
 *   back to its savepoint alone; the others go on. Its caller gets its own error.
 * - No work's result is handed back before the COMMIT has returned: every answer still waits for
 *   the commit that makes it durable.
 * - When the transaction itself fails (BEGIN, COMMIT, or an error after which SQLite rolled the
 *   whole transaction back: I/O, disk full), nothing of the batch is durable and every work of it
 *   fails: the one whose error it was with that error, the others with GroupCommitFailed.
 * Under no load a batch holds one work: one transaction per work, as before group commit.
 */
class SqliteCommitGroup {
  private waiting: Waiting[] = [];

  constructor(private readonly db: Knex) {}

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ work, caller: context.active(), resolve: resolve as (value: unknown) => void, reject });
      // setImmediate runs after the pending I/O callbacks: requests read in this turn join the batch.
      if (this.waiting.length === 1) setImmediate(() => void this.commitBatch());
    });
  }

  private async commitBatch(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    let connection: SqliteConnection;
    try {
      connection = await acquirePooledConnection<SqliteConnection>(this.db);
    } catch (error) {
      batch.forEach((waiting) => waiting.reject(error));
      return;
    }
    try {
      connection.exec(SQLITE_BEGIN);
      for (const waiting of batch) {
        runStatement(connection, 'SAVEPOINT work');
        try {
          const value = await context.with(waiting.caller, () => waiting.work(new DirectSqliteTransaction(connection, this.db)));
          runStatement(connection, 'RELEASE work');
          waiting.ran = { ok: true, value };
        } catch (error) {
          waiting.ran = { ok: false, error };
          // SQLite rolled the whole transaction back (I/O error, disk full…): the batch fails below.
          if (!connection.inTransaction) throw error;
          // Otherwise the transaction is still open and ROLLBACK TO undoes this work alone.
          runStatement(connection, 'ROLLBACK TO work');
          runStatement(connection, 'RELEASE work');
        }
      }
      connection.exec('COMMIT');
    } catch (error) {
      if (connection.inTransaction) {
        try {
          connection.exec('ROLLBACK');
        } catch (rollbackError) {
          // Left inside a transaction, the pool's only connection would fail every later BEGIN.
          discardPooledConnection(connection, rollbackError);
        }
      }
      // Nothing of the batch is durable. A work that had failed on its own keeps its own error; the
      // others get one that is not theirs to interpret (never, say, another work's unique violation).
      for (const waiting of batch) {
        waiting.reject(waiting.ran?.ok === false ? waiting.ran.error : new GroupCommitFailed('the group commit failed', { cause: error }));
      }
      return;
    } finally {
      await releasePooledConnection(this.db, connection);
    }
    for (const { ran, resolve, reject } of batch) {
      if (ran?.ok) resolve(ran.value);
      else reject(ran?.error);
    }
  }
}

const commitGroups = new WeakMap<Knex, SqliteCommitGroup>();

/**
 * Runs `work` in one write transaction: on SQLite a direct one, shared with the works that arrive
 * in the same turn (group commit, above); a knex one elsewhere. Resolves once `work`'s writes are
 * committed; rejects, with nothing of `work` written, when it throws or the commit fails.
 */
export async function fastWriteTransaction<T>(db: Knex, work: Work<T>): Promise<T> {
  if (dialectOf(db) !== 'sqlite') return db.transaction((trx) => work(trx));
  let group = commitGroups.get(db);
  if (!group) {
    group = new SqliteCommitGroup(db);
    commitGroups.set(db, group);
  }
  return group.run(work);
}
