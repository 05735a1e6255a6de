import { afterEach, describe, expect, it } from 'vitest';
import { migratedSqlite } from '@/lib/testing/sqlite';
import { demoSeed } from './demo-seed';
import { topUpDemoSlots } from './seed';

const DAY = 86_400_000;
const created = new Date('2026-03-02T12:00:00Z');

describe('the demo keeps a rolling window of slots', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it('a demo database created weeks ago gets future slots on start, once', async () => {
    const database = await migratedSqlite(demoSeed(created));
    cleanup = database.cleanup;
    const later = new Date(created.getTime() + 30 * DAY);
    const futureCount = async () => Number((await database.db('slots').where('start_ms', '>', later.getTime()).count({ n: '*' }))[0]?.n);

    expect(await futureCount()).toBe(0); // what the issue saw: after two weeks, nothing to reserve
    const added = await topUpDemoSlots(database.db, later);
    expect(added).toBeGreaterThan(100);
    expect(await futureCount()).toBe(added);
    // The first free slot is no more than two days ahead (tomorrow may be a Sunday).
    const first = await database.db('slots').where('start_ms', '>', later.getTime()).min({ start: 'start_ms' });
    expect(Number(first[0]?.start) - later.getTime()).toBeLessThan(2 * DAY + 12 * 3_600_000);

    expect(await topUpDemoSlots(database.db, later)).toBe(0);
  });

  it('topping up on the day of creation adds nothing: the seed already holds the window', async () => {
    const database = await migratedSqlite(demoSeed(created));
    cleanup = database.cleanup;
    expect(await topUpDemoSlots(database.db, created)).toBe(0);
  });
});
