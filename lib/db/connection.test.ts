import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knexConfig } from './connection';
import { resetEnv } from '@/lib/testing/hooks';

/**
 * Another process writing to the embedded database file (the lean API server beside `npm start`):
 * a knex transaction that reads and then writes must wait for it, not fail with SQLITE_BUSY.
 * The other writer is a child process because better-sqlite3 waits for a lock synchronously: in
 * this process it would block the very timer that ends the other transaction.
 */
describe('the embedded database shared with another process', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-begin-'));
  let db: Knex;

  beforeAll(async () => {
    Object.assign(process.env, { DATA_DIR: dataDir, LOG_SILENT: 'true' });
    delete process.env.DATABASE_URL;
    resetEnv();
    db = knex(knexConfig());
    await db.schema.createTable('counter', (table) => table.integer('n'));
    await db('counter').insert({ n: 0 });
  });
  afterAll(async () => {
    await db.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a read-then-write transaction waits for the other writer and sees its commit', async () => {
    const other = holdWriteLock(path.join(dataDir, 'integration-console.sqlite'), 300);
    await other.locked;
    await db.transaction(async (trx) => {
      const row = (await trx('counter').first()) as { n: number };
      await trx('counter').update({ n: row.n + 1 });
    });
    await other.done;
    // The other process added 10 while holding the lock; nothing was lost and nothing failed.
    expect(((await db('counter').first()) as { n: number }).n).toBe(11);
  });
});

/** A child process that takes the write lock, adds 10, and holds the lock `ms` before committing. */
function holdWriteLock(file: string, ms: number) {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
    db.exec('UPDATE counter SET n = n + 10');
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});
    db.exec('COMMIT');
    db.close();`;
  const child = spawn(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`lock holder exited (${code}) before locking`)));
  });
  const done = new Promise<void>((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lock holder exited ${code}`)))),
  );
  return { locked, done };
}
