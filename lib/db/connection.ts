import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { env } from '@/lib/config/env';

/** Knex configuration for the configured database: DATABASE_URL, or the embedded SQLite file. */
export function knexConfig(): Knex.Config {
  const { DATABASE_URL, dataDir } = env();
  if (DATABASE_URL) return serverDatabaseConfig(DATABASE_URL);

  fs.mkdirSync(dataDir, { recursive: true });
  return {
    client: 'better-sqlite3',
    connection: { filename: path.join(dataDir, 'integration-console.sqlite') },
    useNullAsDefault: true,
    // One connection: SQLite has a single writer, and one connection makes every transaction
    // serial within the process, which the scheduler's rules rely on.
    pool: {
      min: 1,
      max: 1,
      afterCreate(connection: { pragma(sql: string): unknown }, done: (error: Error | null, connection: unknown) => void) {
        connection.pragma('journal_mode = WAL');
        // FULL: an answered reservation is on disk before the response leaves, even on power loss.
        connection.pragma('synchronous = FULL');
        connection.pragma('busy_timeout = 5000');
        done(null, connection);
      },
    },
  };
}

function serverDatabaseConfig(url: string): Knex.Config {
  const parsed = new URL(url);
  if (parsed.protocol === 'postgres:' || parsed.protocol === 'postgresql:') {
    return { client: 'pg', connection: url, pool: { min: 0, max: 10 } };
  }
  if (parsed.protocol === 'oracle:') {
    return {
      client: 'oracledb',
      connection: {
        user: decodeURIComponent(parsed.username),
        password: decodeURIComponent(parsed.password),
        connectString: `${parsed.host}${parsed.pathname}`,
        connectTimeout: 10,
      } as unknown as Knex.OracleDbConnectionConfig,
      pool: { min: 0, max: 10 },
    };
  }
  throw new Error('DATABASE_URL must start with postgres://, postgresql:// or oracle://');
}

export function createKnex(): Knex {
  return knex(knexConfig());
}
