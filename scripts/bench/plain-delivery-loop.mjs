#!/usr/bin/env node
// The yardstick of deliveries.mjs's `--only cpu` section (issue 45 §5): a plain Node program doing the
// durable work the delivery engine does for each delivery, and nothing else, so that the product's
// deliveries per second and CPU per delivery can be read against it in the same run:
//   - claim due rows in a transaction (SQLite: BEGIN IMMEDIATE, one writer; PostgreSQL: FOR UPDATE
//     SKIP LOCKED, so two of these share a table), leasing them, then load each one's event and
//     configuration in one statement;
//   - sign with Standard Webhooks (HMAC-SHA256 of `{id}.{timestamp}.{body}`, node:crypto, as
//     lib/webhooks/delivery/signature.ts) and POST over a keep-alive agent, at most --concurrency at once;
//   - record each attempt (its row, with the headers and body sent) and the delivery's outcome, the
//     outcomes of attempts that ended together in one transaction (group commit).
// Same driver and settings as the product (lib/db/connection.ts): better-sqlite3 with WAL and
// synchronous=FULL, or pg. No fair share across tenants, no circuit, no pacing, no payload control,
// no logs, metrics or spans: what the product adds is what the comparison shows.
//
//   node scripts/bench/plain-delivery-loop.mjs prepare --sqlite FILE | --pg URL  --receiver URL
//     [--deliveries 4000] [--configs 8] [--tenants 4]
//   node scripts/bench/plain-delivery-loop.mjs run --sqlite FILE | --pg URL [--concurrency 16]
// `run` connects, prints `ready`, waits for a line on stdin to start, prints `done <n>` once nothing
// is left to claim and every outcome is committed, and exits when stdin ends (the bench reads its CPU
// time from /proc before that).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import readline from 'node:readline';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sqlite: { type: 'string' },
    pg: { type: 'string' },
    receiver: { type: 'string' },
    deliveries: { type: 'string', default: '4000' },
    configs: { type: 'string', default: '8' },
    tenants: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '16' },
  },
});
const [mode] = positionals;
const LEASE_MS = 35_000;
const TIMEOUT_MS = 15_000;

/** The same statements on both databases: `?` placeholders, numbered for pg. */
async function open() {
  if (values.sqlite) {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(values.sqlite);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    const statements = new Map();
    const prepared = (sql) => {
      let statement = statements.get(sql);
      if (!statement) statements.set(sql, (statement = db.prepare(sql)));
      return statement;
    };
    return {
      kind: 'sqlite',
      async exec(sql) {
        db.exec(sql);
      },
      async all(sql, params = [], client) {
        void client;
        return prepared(sql).all(...params);
      },
      async run(sql, params = [], client) {
        void client;
        prepared(sql).run(...params);
      },
      async transaction(work) {
        prepared('BEGIN IMMEDIATE').run();
        try {
          const result = await work(undefined);
          prepared('COMMIT').run();
          return result;
        } catch (error) {
          prepared('ROLLBACK').run();
          throw error;
        }
      },
      async close() {
        db.close();
      },
    };
  }
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: values.pg, max: 10 });
  const numbered = new Map();
  const text = (sql) => {
    let out = numbered.get(sql);
    if (out === undefined) {
      let n = 0;
      out = sql.replace(/\?/g, () => `$${++n}`);
      numbered.set(sql, out);
    }
    return out;
  };
  return {
    kind: 'pg',
    async exec(sql) {
      await pool.query(sql);
    },
    async all(sql, params = [], client = pool) {
      return (await client.query(text(sql), params)).rows;
    },
    async run(sql, params = [], client = pool) {
      await client.query(text(sql), params);
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

const SCHEMA = [
  `CREATE TABLE plain_configs (id VARCHAR(36) PRIMARY KEY, tenant VARCHAR(36) NOT NULL, url VARCHAR(2048) NOT NULL,
     secret VARCHAR(100) NOT NULL, headers_json TEXT NOT NULL)`,
  `CREATE TABLE plain_events (id VARCHAR(40) PRIMARY KEY, tipo VARCHAR(60) NOT NULL, usuario_id VARCHAR(36) NOT NULL,
     dados_json TEXT NOT NULL, created_at BIGINT NOT NULL)`,
  `CREATE TABLE plain_deliveries (id VARCHAR(40) PRIMARY KEY, event_id VARCHAR(40) NOT NULL, config_id VARCHAR(36) NOT NULL,
     status VARCHAR(12) NOT NULL, attempts INTEGER NOT NULL, created_at BIGINT NOT NULL, next_attempt_at BIGINT,
     lease_owner VARCHAR(64), lease_until BIGINT, last_attempt_at BIGINT, last_status INTEGER, last_duration_ms INTEGER,
     last_body VARCHAR(1024), last_error VARCHAR(40))`,
  `CREATE INDEX plain_deliveries_due_ix ON plain_deliveries (status, next_attempt_at)`,
  `CREATE TABLE plain_attempts (id VARCHAR(40) PRIMARY KEY, delivery_id VARCHAR(40) NOT NULL, attempt_no INTEGER NOT NULL,
     started_at BIGINT NOT NULL, duration_ms INTEGER NOT NULL, status INTEGER, body_excerpt VARCHAR(1024), error VARCHAR(40),
     request_headers_json TEXT NOT NULL, request_body TEXT)`,
  `CREATE INDEX plain_attempts_delivery_ix ON plain_attempts (delivery_id)`,
];

/** The same workload as the product's: --configs configurations spread over --tenants tenants, --deliveries due at once. */
async function prepare(db) {
  for (const statement of SCHEMA) await db.exec(statement);
  const configs = Number(values.configs);
  const tenants = Number(values.tenants);
  const deliveries = Number(values.deliveries);
  const byTenant = new Map();
  for (let i = 0; i < configs; i++) {
    const tenant = `tenant-${i % tenants}`;
    const id = randomUUID();
    byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), id]);
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    await db.run('INSERT INTO plain_configs (id, tenant, url, secret, headers_json) VALUES (?, ?, ?, ?, ?)', [
      id,
      tenant,
      values.receiver,
      secret,
      '[]',
    ]);
  }
  const now = Date.now();
  let made = 0;
  await db.transaction(async (client) => {
    for (let n = 0; made < deliveries; n++) {
      const [tenant, ids] = [...byTenant.entries()][n % byTenant.size];
      const eventId = `evt_${randomUUID()}`;
      const dados = { sentAt: now, numero: n };
      await db.run(
        'INSERT INTO plain_events (id, tipo, usuario_id, dados_json, created_at) VALUES (?, ?, ?, ?, ?)',
        [eventId, 'eventoAvaliacaoSaudeAprovada', tenant, JSON.stringify(dados), now],
        client,
      );
      for (const configId of ids) {
        if (made++ >= deliveries) break;
        await db.run(
          'INSERT INTO plain_deliveries (id, event_id, config_id, status, attempts, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [`dlv_${randomUUID()}`, eventId, configId, 'pendente', 0, now, now],
          client,
        );
      }
    }
  });
}

const CLAIM_SQLITE = `SELECT id FROM plain_deliveries WHERE status = 'pendente' AND next_attempt_at <= ?
  AND (lease_until IS NULL OR lease_until < ?) ORDER BY next_attempt_at LIMIT ?`;
const CLAIM_PG = `${CLAIM_SQLITE} FOR UPDATE SKIP LOCKED`;
const CONTEXTS = `SELECT d.id, d.attempts, e.id AS event_id, e.tipo, e.usuario_id, e.dados_json, e.created_at,
  c.id AS config_id, c.url, c.secret, c.headers_json
  FROM plain_deliveries d JOIN plain_events e ON e.id = d.event_id JOIN plain_configs c ON c.id = d.config_id WHERE d.id IN `;

async function run(db) {
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const concurrency = Number(values.concurrency);
  const agent = new http.Agent({ keepAlive: true });
  const keys = new Map();
  let inFlight = 0;
  let delivered = 0;
  let pumping = false;
  let finished = false;
  let outcomes = [];
  let flushing = null;
  let onDone;
  const done = new Promise((resolve) => (onDone = resolve));

  async function claim(limit) {
    const now = Date.now();
    return db.transaction(async (client) => {
      const rows = await db.all(db.kind === 'pg' ? CLAIM_PG : CLAIM_SQLITE, [now, now, limit], client);
      if (rows.length === 0) return [];
      const ids = rows.map((row) => row.id);
      const marks = ids.map(() => '?').join(', ');
      await db.run(
        `UPDATE plain_deliveries SET lease_owner = ?, lease_until = ? WHERE id IN (${marks})`,
        [owner, now + LEASE_MS, ...ids],
        client,
      );
      return db.all(`${CONTEXTS}(${marks})`, ids, client);
    });
  }

  function keyOf(secret) {
    let key = keys.get(secret);
    if (!key) keys.set(secret, (key = Buffer.from(secret.slice('whsec_'.length), 'base64')));
    return key;
  }

  function post(row) {
    const startedAt = Date.now();
    const body = JSON.stringify({
      type: row.tipo,
      timestamp: new Date(Number(row.created_at)).toISOString(),
      data: { ...JSON.parse(row.dados_json), idEvento: row.event_id, usuarioId: row.usuario_id },
    });
    const timestamp = Math.floor(startedAt / 1000);
    const signature = `v1,${createHmac('sha256', keyOf(row.secret)).update(`${row.id}.${timestamp}.${body}`).digest('base64')}`;
    const headers = {
      'content-type': 'application/json',
      'webhook-id': row.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature,
      'user-agent': 'plain-delivery-loop',
    };
    for (const { chave, valor } of JSON.parse(row.headers_json)) headers[chave] = valor;
    return new Promise((resolve) => {
      const finish = (status, text, error) =>
        resolve({ row, startedAt, durationMs: Date.now() - startedAt, status, text, error, headers, body });
      const request = http.request(
        row.url,
        { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => finish(response.statusCode, Buffer.concat(chunks).subarray(0, 1024).toString('utf8'), null));
        },
      );
      request.setTimeout(TIMEOUT_MS, () => request.destroy(new Error('timeout')));
      request.on('error', (error) => finish(null, null, error.code ?? 'erro-rede'));
      request.end(body);
    });
  }

  /** Group commit: every outcome that came in while the previous commit ran, in one transaction. */
  function record(outcome) {
    return new Promise((resolve, reject) => {
      outcomes.push({ outcome, resolve, reject });
      if (!flushing) flushing = new Promise((go) => setImmediate(go)).then(flush);
    });
  }

  async function flush() {
    const batch = outcomes;
    outcomes = [];
    try {
      await db.transaction(async (client) => {
        for (const { outcome } of batch) {
          const { row, startedAt, durationMs, status, text, error, headers, body } = outcome;
          const ok = status !== null && status >= 200 && status < 300;
          await db.run(
            `UPDATE plain_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,
               last_attempt_at = ?, last_status = ?, last_duration_ms = ?, last_body = ?, last_error = ? WHERE id = ? AND lease_owner = ?`,
            [
              ok ? 'entregue' : 'pendente',
              row.attempts + 1,
              ok ? null : startedAt + 5000,
              startedAt,
              status,
              durationMs,
              text,
              ok ? null : (error ?? 'status-http'),
              row.id,
              owner,
            ],
            client,
          );
          await db.run(
            `INSERT INTO plain_attempts (id, delivery_id, attempt_no, started_at, duration_ms, status, body_excerpt, error,
               request_headers_json, request_body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              `att_${randomUUID()}`,
              row.id,
              row.attempts + 1,
              startedAt,
              durationMs,
              status,
              text,
              ok ? null : (error ?? 'status-http'),
              JSON.stringify(headers),
              body,
            ],
            client,
          );
        }
      });
      for (const entry of batch) entry.resolve();
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    } finally {
      flushing = outcomes.length > 0 ? new Promise((go) => setImmediate(go)).then(flush) : null;
    }
  }

  async function one(row) {
    const outcome = await post(row);
    await record(outcome);
    if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) delivered++;
  }

  async function pump() {
    if (pumping || finished) return;
    pumping = true;
    try {
      while (inFlight < concurrency) {
        const rows = await claim(concurrency - inFlight);
        if (rows.length === 0) break;
        for (const row of rows) {
          inFlight++;
          void one(row)
            .catch((error) => console.error(error))
            .finally(() => {
              inFlight--;
              // Claims again once a quarter of the slots are free, as the product's worker does.
              if (inFlight === 0 || concurrency - inFlight >= Math.max(1, Math.floor(concurrency / 4))) void pump();
            });
        }
      }
      if (inFlight === 0 && !flushing) {
        finished = true;
        onDone();
      }
    } finally {
      pumping = false;
    }
  }

  void pump();
  await done;
  agent.destroy();
  return delivered;
}

const db = await open();
if (mode === 'prepare') {
  await prepare(db);
  await db.close();
} else if (mode === 'run') {
  const lines = readline.createInterface({ input: process.stdin });
  const iterator = lines[Symbol.asyncIterator]();
  process.stdout.write('ready\n');
  await iterator.next();
  const delivered = await run(db);
  process.stdout.write(`done ${delivered}\n`);
  // Kept alive until the bench has read this process's CPU time.
  while (!(await iterator.next()).done);
  await db.close();
} else {
  console.error('usage: plain-delivery-loop.mjs prepare|run --sqlite FILE | --pg URL …');
  process.exit(2);
}
