import { expect, it } from 'vitest';
import { getDb } from '@/lib/db/handle';
import { type DbRow } from '@/lib/db/dialect';
import { countAttempt, settleSuccess, signInCounters, sweepExpiredCounters, tokenCounters } from '@/lib/auth/login-throttle';
import { LONGEST_WINDOW_MS, THROTTLE_RULES } from '@/lib/auth/throttle-policy';
import { claimKey, completeKey, releaseKey } from '@/lib/idempotency/store';
import { findStaffById, insertStaff, updateStaffRow } from '@/lib/staff/store';

/** The sign-in throttle, staff sessions and idempotency keys on each database (run by store-contract.ts). */

export function throttleContract(): void {
  it('counts sign-in attempts atomically: of parallel attempts exactly the limit passes; a success clears', async () => {
    const counters = signInCounters('contrato-paralelo@exemplo.com.br', '203.0.113.9');
    const decisions = await Promise.all(Array.from({ length: 12 }, () => countAttempt(counters)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(THROTTLE_RULES.emailAndAddress.maxFailures);
    const refused = decisions.find((decision) => !decision.allowed);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: THROTTLE_RULES.emailAndAddress.lockMs / 1000 });
    await settleSuccess(counters);
    expect(await countAttempt(counters)).toEqual({ allowed: true });
  });

  it('locks an address guessing at many identities, not the same identities from another address', async () => {
    const rule = THROTTLE_RULES.tokenAddress;
    const decisions = [];
    for (let i = 0; i <= rule.maxFailures; i++)
      decisions.push(await countAttempt(tokenCounters(`contrato-aleatorio-${i}`, '198.51.100.66')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(rule.maxFailures);
    expect((await countAttempt(tokenCounters('contrato-aleatorio-0', '198.51.100.67'))).allowed).toBe(true);
  });

  it('a success gives the address its attempt back, so successes never add up to a lock', async () => {
    const rule = THROTTLE_RULES.signInAddress;
    for (let i = 0; i < rule.maxFailures * 2; i++) {
      const counters = signInCounters(`contrato-nat-${i}@exemplo.com.br`, '198.51.100.70');
      expect((await countAttempt(counters)).allowed).toBe(true);
      await settleSuccess(counters);
    }
  });

  it('counts an IPv6 client by its /64 and an IPv4-mapped address as the IPv4 one', async () => {
    const limit = THROTTLE_RULES.emailAndAddress.maxFailures;
    const email = 'contrato-ipv6@exemplo.com.br';
    for (let i = 1; i <= limit; i++) expect((await countAttempt(signInCounters(email, `2001:db8:c0:1::${i}`))).allowed).toBe(true);
    expect((await countAttempt(signInCounters(email, '2001:db8:c0:1:ffff::9'))).allowed).toBe(false);
    expect((await countAttempt(signInCounters(email, '2001:db8:c0:2::1'))).allowed).toBe(true);
    for (let i = 1; i <= limit; i++) expect((await countAttempt(signInCounters(email, '198.51.100.80'))).allowed).toBe(true);
    expect((await countAttempt(signInCounters(email, '::ffff:198.51.100.80'))).allowed).toBe(false);
  });

  it('sweeps counters whose window and lock are over, and only those', async () => {
    const db = await getDb();
    const now = 1_900_000_000_000;
    const old = now - LONGEST_WINDOW_MS - 1;
    await db('login_throttle').insert([
      { throttle_key: 'sweep:old', failures: 3, window_start: old, locked_until: null },
      { throttle_key: 'sweep:old-lock-over', failures: 9, window_start: old, locked_until: now - 1 },
      { throttle_key: 'sweep:still-locked', failures: 9, window_start: old, locked_until: now + 60_000 },
      { throttle_key: 'sweep:recent', failures: 1, window_start: now - 1000, locked_until: null },
    ]);
    await sweepExpiredCounters(db, now);
    const left = await db('login_throttle').where('throttle_key', 'like', 'sweep:%').select('throttle_key');
    expect(left.map((row: DbRow) => String(row.throttle_key)).sort()).toEqual(['sweep:recent', 'sweep:still-locked']);
  });

  it('locks a counter until its lock runs out, then gives a fresh set of attempts', async () => {
    const t0 = 1_800_000_000_000;
    const rule = THROTTLE_RULES.clientAndAddress;
    const counters = tokenCounters('contrato-cliente', '198.51.100.1');
    for (let attempt = 0; attempt < rule.maxFailures; attempt++) expect((await countAttempt(counters, () => t0)).allowed).toBe(true);
    expect(await countAttempt(counters, () => t0 + 1000)).toEqual({ allowed: false, retryAfterSeconds: rule.lockMs / 1000 - 1 });
    expect(await countAttempt(counters, () => t0 + rule.lockMs)).toEqual({ allowed: true });
    // Sign-in and token counters live in separate key namespaces.
    expect((await countAttempt(signInCounters('contrato-cliente', '198.51.100.1'), () => t0 + 1000)).allowed).toBe(true);
  });
}

export function staffSessionContract(): void {
  it('bumps a staff account’s session version in the statement, guarded by the version a session holds', async () => {
    const db = await getDb();
    const id = '5e551011-0000-4000-8000-000000000001';
    await insertStaff(db, { id, email: 'contrato-sessao@exemplo.com.br', name: 'Sessão', roles: 'scheduling', createdAt: Date.now() });
    expect((await findStaffById(db, id))?.sessionVersion).toBe(0);
    expect(await updateStaffRow(db, id, { passwordHash: 'x', endSessions: true }, { sessionVersion: 0 })).toBe(1);
    expect((await findStaffById(db, id))?.sessionVersion).toBe(1);
    // A session still at version 0 was ended by that change: its own change changes nothing.
    expect(await updateStaffRow(db, id, { passwordHash: 'y', endSessions: true }, { sessionVersion: 0 })).toBe(0);
    expect(await findStaffById(db, id)).toMatchObject({ passwordHash: 'x', sessionVersion: 1 });
    // Concurrent bumps each count.
    await Promise.all(Array.from({ length: 5 }, () => updateStaffRow(db, id, { endSessions: true })));
    expect((await findStaffById(db, id))?.sessionVersion).toBe(6);
  });
}

export function idempotencyContract(): void {
  it('stores idempotency keys: one claim among contenders, replay, mismatch, release', async () => {
    const db = await getDb();
    const ref = { owner: 'api-client:embedded:contrato:cliente', key: 'contrato-1' };
    const t0 = Date.now();
    const claims = await Promise.all(Array.from({ length: 6 }, () => claimKey(db, ref, 'h', t0)));
    expect(claims.filter((claim) => claim.kind === 'claimed')).toHaveLength(1);
    expect(claims.filter((claim) => claim.kind === 'in-flight')).toHaveLength(5);
    const answer = { status: 200, body: { CODIGO_P: '0', MENSAGEM_P: 'Reservado – ação' } };
    await completeKey(db, ref, t0, answer);
    expect(await claimKey(db, ref, 'h', t0 + 1)).toEqual({ kind: 'replay', answer });
    expect(await claimKey(db, ref, 'other', t0 + 1)).toEqual({ kind: 'mismatch' });
    const second = { ...ref, key: 'contrato-2' };
    expect(await claimKey(db, second, 'h', t0)).toEqual({ kind: 'claimed', claimedAt: t0 });
    await releaseKey(db, second, t0);
    expect((await claimKey(db, second, 'h', t0 + 1)).kind).toBe('claimed');
  });
}
