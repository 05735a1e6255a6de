import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import knex, { type Knex } from 'knex';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isUniqueViolation } from './dialect';
import { DirectSqliteTransaction, fastWriteTransaction, GroupCommitFailed } from './direct-transaction';

/**
 * Group commit on a real SQLite file, watched from a second connection (as another process would
 * see it): what a work's caller is told must match what is durable in the file.
 */
describe('fastWriteTransaction on SQLite: group commit', () => {
  let dir: string;
  let db: Knex;
  let observer: Database.Database;
  let commits: number;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-group-commit-'));
    const filename = path.join(dir, 'test.sqlite');
    db = knex({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
    await db.raw('PRAGMA journal_mode = WAL');
    await db.raw('PRAGMA foreign_keys = ON');
    await db.raw('CREATE TABLE parents (id INTEGER PRIMARY KEY)');
    await db.raw('CREATE TABLE rows (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)');
    // Counts the COMMITs the connection runs (the pool's only connection, the one the works use).
    const pool = db.client as {
      acquireConnection(): Promise<{ exec(sql: string): unknown }>;
      releaseConnection(c: unknown): Promise<void>;
    };
    const connection = await pool.acquireConnection();
    const exec = connection.exec.bind(connection);
    commits = 0;
    connection.exec = (sql: string) => {
      if (sql === 'COMMIT') commits++;
      return exec(sql);
    };
    await pool.releaseConnection(connection);
    observer = new Database(filename, { readonly: true });
  });

  afterEach(async () => {
    observer.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const committedIds = () => (observer.prepare('SELECT id FROM rows ORDER BY id').all() as Array<{ id: number }>).map((row) => row.id);
  const insert = (id: number, parent: number | null = null) =>
    fastWriteTransaction(db, async (tx) => {
      (tx as DirectSqliteTransaction).execute('INSERT INTO rows (id, parent) VALUES (?, ?)', [id, parent]);
      return id;
    });

  it('works that arrive together share one commit, and each answer comes after its row is durable', async () => {
    const seenAtAnswer: number[][] = [];
    const answers = await Promise.all([1, 2, 3, 4].map((id) => insert(id).then((value) => (seenAtAnswer.push(committedIds()), value))));
    expect(answers).toEqual([1, 2, 3, 4]);
    expect(commits).toBe(1);
    for (const seen of seenAtAnswer) expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('works that arrive one after another commit one after another', async () => {
    await insert(1);
    expect(committedIds()).toEqual([1]);
    await insert(2);
    expect(commits).toBe(2);
  });

  it('a work that fails is rolled back alone and gets its own error; the others are committed', async () => {
    const results = await Promise.allSettled([
      insert(1),
      fastWriteTransaction(db, async (tx) => {
        (tx as DirectSqliteTransaction).execute('INSERT INTO rows (id) VALUES (?)', [2]);
        (tx as DirectSqliteTransaction).execute('INSERT INTO rows (id) VALUES (?)', [1]); // the key of the first work
        return 2;
      }),
      insert(3),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(isUniqueViolation((results[1] as PromiseRejectedResult).reason)).toBe(true);
    expect(committedIds()).toEqual([1, 3]);
    expect(commits).toBe(1);
  });

  it('a work after which SQLite ended the transaction keeps its own error; the batch fails and writes nothing', async () => {
    const ended = new Error('disk I/O error');
    const results = await Promise.allSettled([
      insert(1),
      fastWriteTransaction(db, async (tx) => {
        (tx as DirectSqliteTransaction).execute('INSERT INTO rows (id) VALUES (?)', [2]);
        // What SQLite does by itself on an I/O error or a full disk: the whole transaction is gone.
        (tx as DirectSqliteTransaction).execute('ROLLBACK', []);
        throw ended;
      }),
      insert(3),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toBeInstanceOf(GroupCommitFailed);
    expect((results[1] as PromiseRejectedResult).reason).toBe(ended);
    expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(GroupCommitFailed);
    expect(committedIds()).toEqual([]);
    await expect(insert(5)).resolves.toBe(5);
  });

  it('a work cannot write once the transaction has ended: that write would commit by itself', async () => {
    await expect(
      fastWriteTransaction(db, async (tx) => {
        (tx as DirectSqliteTransaction).execute('ROLLBACK', []);
        (tx as DirectSqliteTransaction).execute('INSERT INTO rows (id) VALUES (?)', [7]);
      }),
    ).rejects.toBeInstanceOf(GroupCommitFailed);
    expect(committedIds()).toEqual([]);
  });

  it('when the commit itself fails, every work fails, none with another’s error, and nothing is written', async () => {
    // A dangling reference to a deferred foreign key passes its statement and fails at COMMIT.
    const results = await Promise.allSettled([insert(1), insert(2, 404), insert(3)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const result of results) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(GroupCommitFailed);
    expect(committedIds()).toEqual([]);
    // The connection is usable again: the failed batch was rolled back.
    await expect(insert(5)).resolves.toBe(5);
    expect(committedIds()).toEqual([5]);
  });
});
