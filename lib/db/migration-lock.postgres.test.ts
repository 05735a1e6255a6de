import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKnex } from '@/lib/db/connection';
import { migrate } from '@/lib/db/handle';
import { migrationSource } from '@/lib/db/migrations';
import { createDatabase, dropDatabase } from '@/e2e/support/databases';
import { resetEnv } from '@/lib/testing/hooks';

/** Opt-in, with the repositories' suite: POSTGRES_TEST_URL=postgres://postgres@127.0.0.1:5432/postgres. */
const adminUrl = process.env.POSTGRES_TEST_URL;

describe.skipIf(!adminUrl)('migrations on PostgreSQL: instances take turns (POSTGRES_TEST_URL)', () => {
  let databaseUrl: string;
  const handles: Knex[] = [];
  const open = () => {
    const db = createKnex();
    handles.push(db);
    return db;
  };
  const lockRows = async (db: Knex) => db('knex_migrations_lock').select('is_locked');

  beforeAll(async () => {
    databaseUrl = await createDatabase(adminUrl ?? '', 'migrate');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-migrate-pg-'));
    Object.assign(process.env, { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_SILENT: 'true' });
    resetEnv();
  });
  afterAll(async () => {
    await Promise.all(handles.map((db) => db.destroy()));
    if (databaseUrl) await dropDatabase(adminUrl ?? '', databaseUrl);
  });

  it('three instances migrating an empty database at once all start, leaving one unlocked lock row', async () => {
    const dbs = [open(), open(), open()];
    await Promise.all(dbs.map((db) => migrate(db)));
    expect((await lockRows(dbs[0]!)).map((row) => Number(row.is_locked))).toEqual([0]);
    expect(await dbs[1]!.schema.hasTable('webhook_configs')).toBe(true);
  });

  it.each([
    ['a lock left by an instance killed while migrating', [1]],
    ['two lock rows, from two instances creating the tables at once', [0, 0]],
  ])('starts past %s, which knex alone never gets past', async (_case, locks) => {
    // A database whose first start was cut short: knex's lock table made, nothing migrated yet.
    process.env.DATABASE_URL = await createDatabase(adminUrl ?? '', 'migrate_stale');
    resetEnv();
    const db = open();
    try {
      await db.schema.createTable('knex_migrations_lock', (table) => {
        table.increments('index').primary();
        table.integer('is_locked');
      });
      await db('knex_migrations_lock').insert(locks.map((is_locked) => ({ is_locked })));
      await expect(db.migrate.latest({ migrationSource })).rejects.toThrow(/already locked/);
      await migrate(db);
      expect((await lockRows(db)).map((row) => Number(row.is_locked))).toEqual([0]);
      expect(await db.schema.hasTable('webhook_configs')).toBe(true);
    } finally {
      await db.destroy();
      handles.splice(handles.indexOf(db), 1);
      await dropDatabase(adminUrl ?? '', process.env.DATABASE_URL);
    }
  });
});
