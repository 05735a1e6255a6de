import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { migratedSqlite } from '@/lib/testing/sqlite';
import { claimKey, completeKey, IN_FLIGHT_TIMEOUT_MS, releaseKey, RETENTION_MS } from './store';

/** The key store against a real SQLite database with the app's migrations. */
describe('idempotency key store', () => {
  let db: Knex;
  let cleanup: () => Promise<void>;
  const ref = { owner: 'cliente-a', key: 'k-1' };
  const t0 = 1_800_000_000_000;

  beforeEach(async () => {
    ({ db, cleanup } = await migratedSqlite());
  });
  afterEach(() => cleanup());

  it('lets exactly one of several contenders claim a key', async () => {
    const claims = await Promise.all(Array.from({ length: 5 }, () => claimKey(db, ref, 'h', t0)));
    expect(claims.filter((claim) => claim.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((claim) => claim.kind === 'in-flight')).toHaveLength(4);
  });

  it('replays a completed answer, refuses another body, and scopes keys to the owner', async () => {
    const claim = await claimKey(db, ref, 'h', t0);
    if (claim.kind !== 'claimed') throw new Error('expected a claim');
    await completeKey(db, ref, claim.claimedAt, { status: 409, body: { CODIGO_P: '2' } });
    expect(await claimKey(db, ref, 'h', t0 + 1000)).toEqual({ kind: 'replay', answer: { status: 409, body: { CODIGO_P: '2' } } });
    expect(await claimKey(db, ref, 'other', t0 + 1000)).toEqual({ kind: 'mismatch' });
    expect((await claimKey(db, { owner: 'cliente-b', key: 'k-1' }, 'other', t0 + 1000)).kind).toBe('claimed');
  });

  it('forgets a completed key after 24 hours', async () => {
    const claim = await claimKey(db, ref, 'h', t0);
    if (claim.kind !== 'claimed') throw new Error('expected a claim');
    await completeKey(db, ref, claim.claimedAt, { status: 200, body: {} });
    expect((await claimKey(db, ref, 'other', t0 + RETENTION_MS - 1)).kind).toBe('mismatch');
    expect((await claimKey(db, ref, 'other', t0 + RETENTION_MS)).kind).toBe('claimed');
  });

  it('gives a released key to the next request, and takes over one abandoned in flight', async () => {
    const first = await claimKey(db, ref, 'h', t0);
    if (first.kind !== 'claimed') throw new Error('expected a claim');
    await releaseKey(db, ref, first.claimedAt);
    const second = await claimKey(db, ref, 'h', t0 + 1);
    expect(second.kind).toBe('claimed');
    expect((await claimKey(db, ref, 'h', t0 + IN_FLIGHT_TIMEOUT_MS - 1)).kind).toBe('in-flight');
    const takeover = await claimKey(db, ref, 'h', t0 + 1 + IN_FLIGHT_TIMEOUT_MS);
    expect(takeover).toEqual({ kind: 'claimed', claimedAt: t0 + 1 + IN_FLIGHT_TIMEOUT_MS });
    // The instance that was presumed dead finishes late: its answer must not overwrite the new claim.
    if (second.kind !== 'claimed') throw new Error('expected a claim');
    await completeKey(db, ref, second.claimedAt, { status: 200, body: { late: true } });
    expect((await claimKey(db, ref, 'h', t0 + 2 + IN_FLIGHT_TIMEOUT_MS)).kind).toBe('in-flight');
  });
});

describe('idempotency key store with an operation that may run long', () => {
  it('does not take over a key before the in-flight timeout the caller passes', async () => {
    const { db, cleanup } = await migratedSqlite();
    try {
      const ref = { owner: 'api-client:embedded:u:c', key: 'slow' };
      const t0 = 1_800_000_000_000;
      const timeout = 20 * 60_000;
      expect((await claimKey(db, ref, 'h', t0, timeout)).kind).toBe('claimed');
      expect((await claimKey(db, ref, 'h', t0 + IN_FLIGHT_TIMEOUT_MS + 1, timeout)).kind).toBe('in-flight');
      expect((await claimKey(db, ref, 'h', t0 + timeout, timeout)).kind).toBe('claimed');
    } finally {
      await cleanup();
    }
  });
});
