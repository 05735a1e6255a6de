import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fastWriteTransaction } from './direct-transaction';
import { precompiled } from './precompiled';

/** Precompiled queries on a real SQLite file, through knex and through a direct transaction. */
describe('precompiled queries on SQLite', () => {
  let dir: string;
  let db: Knex;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-precompiled-'));
    db = knex({
      client: 'better-sqlite3',
      connection: { filename: path.join(dir, 'test.sqlite') },
      useNullAsDefault: true,
      pool: { min: 1, max: 1 },
    });
    await db.raw('CREATE TABLE notes (id INTEGER PRIMARY KEY, owner TEXT, state TEXT, at INTEGER)');
    await db('notes').insert([
      { id: 1, owner: 'ana', state: "it's active", at: 10 },
      { id: 2, owner: 'ana', state: 'active', at: 20 },
      { id: 3, owner: 'bia', state: "it's active", at: 30 },
    ]);
  });

  afterEach(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // A statement whose LIMIT is bound is recompiled by SQLite on every run with a fresh binding.
  const latest = precompiled<[string]>(1, (q, owner) =>
    q('notes').where({ owner, state: "it's active" }).whereNull('at').orWhere('at', '>', 0).orderBy('at', 'desc').first('id'),
  );
  const touch = precompiled<[number]>(1, (q, id) => q('notes').where({ id }).update({ state: 'done', at: null }));

  it('writes constants into the statement and binds only the parameters', () => {
    const sql = latest.sql(db);
    expect(sql).toContain("'it''s active'");
    expect(sql).toMatch(/limit 1$/);
    expect(sql.match(/\?/g)).toHaveLength(1);
    expect(touch.sql(db)).toMatch(/set `state` = 'done', `at` = NULL where `id` = \?$/);
  });

  it('answers the same rows through knex and through a direct transaction', async () => {
    expect(await latest.first(db, 'ana')).toEqual({ id: 3 });
    const inTransaction = await fastWriteTransaction(db, async (trx) => {
      const row = await latest.first(trx, 'ana');
      const changed = await touch.run(trx, 1);
      return { row, changed };
    });
    expect(inTransaction).toEqual({ row: { id: 3 }, changed: 1 });
    expect(await db('notes').where({ id: 1 }).first()).toEqual({ id: 1, owner: 'ana', state: 'done', at: null });
  });
});
