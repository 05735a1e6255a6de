import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPostgres } from '@/lib/testing/postgres';
import { migratedSqlite } from '@/lib/testing/sqlite';
import { resetEnv } from '@/lib/testing/hooks';
import { insertWebhook } from '@/lib/webhooks/configurations/store/configs';
import { WEBHOOK_EVENT_FLAGS } from '@/lib/webhooks/events/types';
import type { WebhookConfiguration } from '@/lib/webhooks/configurations/contract';
import { attemptsByHour, HOUR_MS, type HourOfAttempts } from './attempt-hours';
import { deleteDeliveriesOf } from './retention';
import { pruneRollups, rolledUntil, rollUpStep, ROLLUP_MARGIN_MS } from './rollups';
import { hourlyAttempts } from './statistics';

/**
 * The hourly roll-ups (issue 45 §6) answer the health and triage figures exactly as counting the
 * raw attempts does, on SQLite and, with POSTGRES_TEST_URL (npm run test:unit:pg), on PostgreSQL.
 */
const adminUrl = process.env.POSTGRES_TEST_URL;
type Database = Awaited<ReturnType<typeof migratedSqlite>>;

const CONFIGS = ['c0000000-0000-4000-8000-00000000000a', 'c0000000-0000-4000-8000-00000000000b', 'c0000000-0000-4000-8000-00000000000c'];
/** "Now": 20 minutes into hour H, so hours before H have ended more than the margin ago. */
const H = 500_000;
const NOW = H * HOUR_MS + 20 * 60_000;

/** A deterministic spread of attempts over the 50 hours before now: some failed, some on an hour's edge. */
function attempts(): Record<string, unknown>[] {
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
  return Array.from({ length: 600 }, (_, i) => {
    const configId = CONFIGS[next() % CONFIGS.length]!;
    const startedAt = i % 50 === 0 ? (H - (i % 7)) * HOUR_MS : NOW - (next() % (50 * HOUR_MS));
    return {
      id: `att_${i}`,
      delivery_id: `dlv_${configId.slice(-1)}_${i}`,
      config_id: configId,
      attempt_no: 1,
      started_at: startedAt,
      duration_ms: next() % 900,
      status: i % 5 === 0 ? 500 : 204,
      error: i % 5 === 0 ? 'http_5xx' : null,
      request_headers_json: '{}',
    };
  });
}

const configuration = (id: string): WebhookConfiguration => ({
  id,
  usuarioId: '7d4f1c2a-3b5e-4c6d-8e9f-0a1b2c3d4e5f',
  sistemaOrigem: 1,
  clientId: null,
  url: 'https://receptor.exemplo.com.br/webhook',
  headers: [],
  ...(Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, false])) as Record<(typeof WEBHOOK_EVENT_FLAGS)[number], boolean>),
});

beforeAll(() => {
  process.env.AUTH_SECRET = 'unit-test-auth-secret-of-at-least-32-characters';
  resetEnv();
});

const sorted = (rows: HourOfAttempts[]) =>
  [...rows].sort((a, b) => a.configId.localeCompare(b.configId) || a.hour - b.hour).filter((row) => row.delivered + row.failed > 0);

describe.each([
  { name: 'SQLite', open: migratedSqlite, skip: false },
  { name: 'PostgreSQL', open: () => migratedPostgres(adminUrl ?? '', 'rollups', 4), skip: !adminUrl },
])('hourly roll-ups on $name', ({ open, skip }) => {
  let database: Database;
  beforeAll(async () => {
    if (skip) return;
    database = await open();
    await database.db.transaction(async (trx) => {
      for (const id of CONFIGS) await insertWebhook(trx, configuration(id));
    });
    const rows = attempts();
    for (let i = 0; i < rows.length; i += 100) await database.db('webhook_attempts').insert(rows.slice(i, i + 100));
  });
  afterAll(async () => {
    if (!skip) await database.cleanup();
  });

  // The windows the health (7 days, a day) and the triage (a day) ask for, one past the oldest
  // attempt, one inside the rolled-up hours, one starting mid-hour, and the current hour alone.
  const windows = [NOW - 7 * 24 * HOUR_MS, (H - 23) * HOUR_MS, (H - 10) * HOUR_MS, (H - 10) * HOUR_MS + 1_234_567, H * HOUR_MS];

  it.skipIf(skip)('answers as the raw attempts do, for every window, once hours are rolled up and while the tail is not', async () => {
    const { db } = database;
    const ids = [CONFIGS[0]!, CONFIGS[2]!];
    expect(await rolledUntil(db)).toBeNull();
    const raw = await Promise.all(windows.map((since) => hourlyAttempts(db, ids, since)));
    expect(raw[0]!.reduce((sum, row) => sum + row.delivered + row.failed, 0)).toBeGreaterThan(300);

    // Two instances rolling up at once take turns on the mark: the second rolls up the hours after
    // the first's (6 a step), and no hour is counted twice (its row's key would refuse it).
    expect(await Promise.all([rollUpStep(db, NOW), rollUpStep(db, NOW)])).toEqual([6, 6]);
    while ((await rollUpStep(db, NOW)) > 0);
    // Hours that ended less than the margin ago wait: here, none but the current one.
    expect(await rolledUntil(db)).toBe(Math.floor((NOW - ROLLUP_MARGIN_MS) / HOUR_MS));
    expect(await rolledUntil(db)).toBe(H);
    expect(await db('webhook_attempt_hours').where('hour_no', '>=', H)).toEqual([]);

    for (const [i, since] of windows.entries()) {
      expect(sorted(await hourlyAttempts(db, ids, since)), `window ${i}`).toEqual(sorted(raw[i]!));
    }
    // An attempt of the current hour, recorded after the roll-up, counts from the raw tail.
    await db('webhook_attempts').insert({
      id: 'att_late',
      delivery_id: 'dlv_late',
      config_id: CONFIGS[0],
      attempt_no: 1,
      started_at: NOW - 1,
      duration_ms: 10,
      status: 204,
      request_headers_json: '{}',
    });
    const current = await hourlyAttempts(db, [CONFIGS[0]!], H * HOUR_MS);
    const before = raw[4]!.find((row) => row.configId === CONFIGS[0]);
    expect(current).toEqual([
      {
        configId: CONFIGS[0],
        hour: H,
        delivered: (before?.delivered ?? 0) + 1,
        failed: before?.failed ?? 0,
        durationMs: (before?.durationMs ?? 0) + 10,
      },
    ]);
  });

  it.skipIf(skip)('keeps rolled-up hours in memory once read: a later read asks only for the hours the mark has passed since', async () => {
    const { db } = database;
    const ids = [CONFIGS[0]!, CONFIGS[2]!];
    const asked: unknown[][] = [];
    const listen = (query: { sql: string; bindings?: unknown[] }) => {
      if (/^select/i.test(query.sql) && query.sql.includes('webhook_attempt_hours')) asked.push(query.bindings ?? []);
    };
    db.on('query', listen);
    try {
      const since = (H - 23) * HOUR_MS;
      const first = sorted(await hourlyAttempts(db, ids, since));
      const read = asked.length;
      expect(sorted(await hourlyAttempts(db, ids, since))).toEqual(first);
      expect(asked.length).toBe(read);

      // Hour H ends and is rolled up: the next read asks for it alone, and counts it.
      await db('webhook_attempts').insert({
        id: 'att_cache',
        delivery_id: 'dlv_cache',
        config_id: CONFIGS[2],
        attempt_no: 1,
        started_at: H * HOUR_MS + 5,
        duration_ms: 7,
        status: 503,
        error: 'http_5xx',
        request_headers_json: '{}',
      });
      expect(await rollUpStep(db, NOW + HOUR_MS)).toBe(1);
      const hourH = await attemptsByHour(db, { from: H * HOUR_MS, to: (H + 1) * HOUR_MS }, ids);
      expect(hourH.find((row) => row.configId === CONFIGS[2])?.failed).toBeGreaterThanOrEqual(1);
      const later = sorted(await hourlyAttempts(db, ids, since));
      expect(later).toEqual(sorted([...first.filter((row) => row.hour < H), ...hourH]));
      const extension = asked.slice(read).filter((bindings) => bindings.includes(H));
      expect(extension).toHaveLength(1);
      expect(extension[0]).not.toContain(H - 23);
    } finally {
      db.off('query', listen);
    }
  });

  it.skipIf(skip)('rolls up nothing twice, and retention and a configuration’s deletion remove its roll-ups', async () => {
    const { db } = database;
    const count = async (query: Knex.QueryBuilder) => Number((await query.count({ n: '*' }))[0]!.n);
    expect(await rollUpStep(db, NOW + 10 * 60_000)).toBe(0);
    const rolled = await count(db('webhook_attempt_hours'));
    expect(rolled).toBeGreaterThan(0);

    const cutOff = (H - 20) * HOUR_MS + 5;
    const pruned = await pruneRollups(db, cutOff);
    expect(pruned).toBeGreaterThan(0);
    expect(await count(db('webhook_attempt_hours').where('hour_no', '<', H - 20))).toBe(0);
    expect(await count(db('webhook_attempt_hours'))).toBe(rolled - pruned);

    await db.transaction((trx) => deleteDeliveriesOf(trx, CONFIGS[1]!));
    expect(await count(db('webhook_attempt_hours').where({ config_id: CONFIGS[1] }))).toBe(0);
    expect(await count(db('webhook_attempt_hours').where({ config_id: CONFIGS[0] }))).toBeGreaterThan(0);
  });
});
