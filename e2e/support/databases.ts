import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * Fresh PostgreSQL databases for e2e runs against a server database (E2E_DATABASE_URL names the
 * server and a database to connect to for CREATE/DROP, e.g. postgres://postgres@127.0.0.1:5432/postgres).
 * Each run, and each spec that needs its own, gets a database of its own, dropped at the end.
 */
export function adminDatabaseUrl(): string | undefined {
  return process.env.E2E_DATABASE_URL || undefined;
}

export async function createDatabase(adminUrl: string, label: string): Promise<string> {
  const prefix = process.env.E2E_DATABASE_PREFIX ?? 'ic_e2e';
  const name = `${prefix}_${label}_${randomBytes(4).toString('hex')}`.toLowerCase();
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name ${name}`);
  await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(adminUrl: string, databaseUrl: string): Promise<void> {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`bad database name ${name}`);
  await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export async function queryDatabase<T extends Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return withClient(url, async (client) => (await client.query<T>(sql, params)).rows);
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * For a spec whose server must not share the run's database (its delivery worker would take the
 * other servers' deliveries, or theirs its own): a fresh database in a PostgreSQL run, nothing
 * (the server's own SQLite file) otherwise. `drop` removes it at the end.
 */
export async function privateDatabase(label: string): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const adminUrl = adminDatabaseUrl();
  if (!adminUrl) return { env: {}, drop: () => Promise.resolve() };
  const url = await createDatabase(adminUrl, label);
  return { env: { DATABASE_URL: url }, drop: () => dropDatabase(adminUrl, url) };
}
