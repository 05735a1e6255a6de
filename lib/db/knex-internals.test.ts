import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquirePooledConnection, discardPooledConnection, KNEX_SQLITE_BEGIN, poolUsage, releasePooledConnection } from './knex-internals';

/**
 * The contract between this app and the installed knex, beyond its documented API
 * (knex-internals.ts): a knex upgrade that breaks one of these assumptions fails here, by name,
 * instead of silently in group commit or the statement cache. A plain knex on a SQLite file, as the
 * embedded default configures it (one pooled connection).
 */
type Connection = { prepare(sql: string): unknown; exec(sql: string): void };

describe('what the app assumes of knex', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-knex-'));
  let db: Knex;
  // knex's own warnings: destroying a discarded connection is one, asserted below instead of printed.
  const warnings: string[] = [];

  beforeAll(() => {
    db = knex({
      log: { warn: (message: string) => void warnings.push(message) },
      client: 'better-sqlite3',
      connection: { filename: path.join(dir, 'contract.sqlite') },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    });
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands out the very connection its queries run on, and takes it back', async () => {
    const connection = await acquirePooledConnection<Connection>(db);
    connection.exec('CREATE TEMP TABLE only_on_this_connection (n INTEGER)');
    await releasePooledConnection(db, connection);
    // Temporary tables belong to one connection: knex's query sees it, so knex used this one.
    expect(await db('only_on_this_connection').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('runs every statement through the connection’s prepare, and begins a transaction with KNEX_SQLITE_BEGIN', async () => {
    const connection = await acquirePooledConnection<Connection>(db);
    const prepare = connection.prepare.bind(connection);
    const seen: string[] = [];
    connection.prepare = (sql: string) => {
      seen.push(sql);
      return prepare(sql);
    };
    await releasePooledConnection(db, connection);
    try {
      await db.transaction(async (trx) => {
        await trx.raw('select 42 as answer');
      });
    } finally {
      connection.prepare = prepare;
    }
    expect(seen[0]).toBe(KNEX_SQLITE_BEGIN);
    expect(seen).toContain('select 42 as answer');
  });

  it('destroys a connection marked as discarded instead of handing it out again', async () => {
    const connection = await acquirePooledConnection<Connection>(db);
    discardPooledConnection(connection, new Error('left inside a transaction'));
    await releasePooledConnection(db, connection);
    const next = await acquirePooledConnection<Connection>(db);
    await releasePooledConnection(db, next);
    expect(next).not.toBe(connection);
    expect(warnings).toContain('Connection Error: Error: left inside a transaction');
  });

  it('reports its pool: a connection out is in use, and an acquisition beyond the pool waits', async () => {
    await db.raw('select 1');
    expect(poolUsage(db)).toEqual({ used: 0, free: 1, pending: 0 });
    const connection = await acquirePooledConnection(db);
    expect(poolUsage(db)).toEqual({ used: 1, free: 0, pending: 0 });
    const waiting = db.raw('select 1').then(() => 'done'); // a knex query runs once something awaits it
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(poolUsage(db)).toMatchObject({ used: 1, pending: 1 });
    await releasePooledConnection(db, connection);
    expect(await waiting).toBe('done');
    expect(poolUsage(db)).toEqual({ used: 0, free: 1, pending: 0 });
  });
});
