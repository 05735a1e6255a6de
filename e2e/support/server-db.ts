import path from 'node:path';
import knex, { type Knex } from 'knex';
import { encode } from 'next-auth/jwt';
import fs from 'node:fs';

/**
 * Access to the shared e2e server's database (its SQLite file, or the run's PostgreSQL database in
 * `npm run test:e2e:pg`): reading what the server stored (the audit trail) without a staff sign-in,
 * writing an idempotency key as another instance sharing the database would hold it, and a staff
 * session cookie signed with that server's generated secret (what next-auth would set after a sign-in).
 */
function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (global-setup sets it)');
  return dir;
}

async function withDatabase<T>(work: (db: Knex) => Promise<T>): Promise<T> {
  return withDatabaseAt({ dataDir: dataDir(), databaseUrl: process.env.E2E_RUN_DATABASE_URL }, work);
}

/**
 * A server's database, as a spec that started its own server reaches it: `databaseUrl` when the
 * server was given one (DATABASE_URL), else the SQLite file in its DATA_DIR, which the server
 * writes to at the same time.
 */
export async function withDatabaseAt<T>(server: { dataDir: string; databaseUrl?: string }, work: (db: Knex) => Promise<T>): Promise<T> {
  const db = server.databaseUrl
    ? knex({ client: 'pg', connection: server.databaseUrl, pool: { min: 0, max: 1 } })
    : knex({
        client: 'better-sqlite3',
        connection: { filename: path.join(server.dataDir, 'integration-console.sqlite') },
        useNullAsDefault: true,
        pool: {
          min: 1,
          max: 1,
          afterCreate(connection: { pragma(sql: string): unknown }, done: (error: Error | null, connection: unknown) => void) {
            connection.pragma('busy_timeout = 5000');
            done(null, connection);
          },
        },
      });
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

export type AuditRow = {
  actor_kind: string;
  actor_id: string;
  action: string;
  target: string;
  outcome: string;
  http_status: number | null;
  before_json: string | null;
  after_json: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

export async function auditRows(target: string, action?: string): Promise<AuditRow[]> {
  return withDatabase(async (db) => {
    const rows: AuditRow[] = await db('audit_events')
      .where({ target, ...(action ? { action } : {}) })
      .orderBy([{ column: 'at_ms' }, { column: 'id' }]);
    return rows.map((row) => ({
      ...row,
      before: row.before_json ? JSON.parse(row.before_json) : null,
      after: row.after_json ? JSON.parse(row.after_json) : null,
    }));
  });
}

/** A console session cookie for a seeded staff user, as next-auth would issue it (at the account's session version now). */
export async function staffSessionCookie(email: string): Promise<string> {
  const user: { id: string; email: string; name: string; session_version: number | string } | undefined = await withDatabase((db) =>
    db('staff_users').where({ email }).first('id', 'email', 'name', 'session_version'),
  );
  if (!user) throw new Error(`no staff user ${email}`);
  const secret = fs.readFileSync(path.join(dataDir(), 'auth-secret'), 'utf8').trim();
  const claims = { sub: user.id, email: user.email, name: user.name, sessionVersion: Number(user.session_version) };
  const token = await encode({ token: claims, secret, maxAge: 600 });
  return `next-auth.session-token=${token}`;
}

/** An idempotency key left in flight, as an instance that is still working (or has died) holds it. */
export async function holdIdempotencyKey(row: { owner: string; key: string; requestHash: string; createdAt: number }): Promise<void> {
  await withDatabase((db) =>
    db('idempotency_keys').insert({
      owner: row.owner,
      idem_key: row.key,
      request_hash: row.requestHash,
      state: 'in_flight',
      http_status: null,
      response_json: null,
      created_at: row.createdAt,
    }),
  );
}

export async function ageIdempotencyKey(owner: string, key: string, createdAt: number): Promise<void> {
  await withDatabase((db) => db('idempotency_keys').where({ owner, idem_key: key }).update({ created_at: createdAt }));
}

/**
 * Moves a hold's expiry into the past, as the clock would after RESERVATION_HOLD_MINUTES: in the
 * embedded scheduler's own row and in the recent-reservations read model.
 */
export async function expireHold(token: string, expiredAt = Date.now() - 1000): Promise<void> {
  await withDatabase(async (db) => {
    await db('reservations').where({ token }).update({ expires_at: expiredAt });
    await db('reservation_log').where({ token }).update({ expires_at: expiredAt });
  });
}

/** What the recent-reservations read model stored for a token, as the database holds it. */
export async function reservationLogRow(token: string): Promise<Record<string, unknown> | undefined> {
  return withDatabase((db) => db('reservation_log').where({ token }).first());
}
