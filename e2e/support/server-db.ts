import path from 'node:path';
import Database from 'better-sqlite3';
import { encode } from 'next-auth/jwt';
import fs from 'node:fs';

/**
 * Access to the shared e2e server's SQLite file: reading what the server stored (the audit trail)
 * without a staff sign-in, writing an idempotency key as another instance sharing the database
 * would hold it, and a staff session cookie signed with that server's generated secret (what
 * next-auth would set after a sign-in).
 */
function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (global-setup sets it)');
  return dir;
}

function withDatabase<T>(read: (db: Database.Database) => T, readonly = true): T {
  const db = new Database(path.join(dataDir(), 'integration-console.sqlite'), { readonly, fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  try {
    return read(db);
  } finally {
    db.close();
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

export function auditRows(target: string, action?: string): AuditRow[] {
  return withDatabase((db) => {
    const rows = db
      .prepare(`select * from audit_events where target = ? ${action ? 'and action = ?' : ''} order by at_ms, id`)
      .all(...(action ? [target, action] : [target])) as AuditRow[];
    return rows.map((row) => ({
      ...row,
      before: row.before_json ? JSON.parse(row.before_json) : null,
      after: row.after_json ? JSON.parse(row.after_json) : null,
    }));
  });
}

/** A console session cookie for a seeded staff user, as next-auth would issue it. */
export async function staffSessionCookie(email: string): Promise<string> {
  const user = withDatabase((db) => db.prepare('select id, email, name from staff_users where email = ?').get(email)) as
    | { id: string; email: string; name: string }
    | undefined;
  if (!user) throw new Error(`no staff user ${email}`);
  const secret = fs.readFileSync(path.join(dataDir(), 'auth-secret'), 'utf8').trim();
  const token = await encode({ token: { sub: user.id, email: user.email, name: user.name }, secret, maxAge: 600 });
  return `next-auth.session-token=${token}`;
}

/** An idempotency key left in flight, as an instance that is still working (or has died) holds it. */
export function holdIdempotencyKey(row: { owner: string; key: string; requestHash: string; createdAt: number }): void {
  withDatabase((db) => {
    db.prepare(
      `insert into idempotency_keys (owner, idem_key, request_hash, state, http_status, response_json, created_at)
       values (?, ?, ?, 'in_flight', null, null, ?)`,
    ).run(row.owner, row.key, row.requestHash, row.createdAt);
  }, false);
}

export function ageIdempotencyKey(owner: string, key: string, createdAt: number): void {
  withDatabase((db) => {
    db.prepare('update idempotency_keys set created_at = ? where owner = ? and idem_key = ?').run(createdAt, owner, key);
  }, false);
}
