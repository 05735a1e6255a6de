import { expect, it } from 'vitest';
import { getDb } from '@/lib/db/handle';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { claimDue, findDelivery, loadAttemptContexts, publishEvent, publishEvents, recordAttempts } from '@/lib/webhooks/delivery/store';
import { TENANT_A, TENANT_B, WEBHOOK_IDS } from '@/e2e/support/test-seed';

/** The delivery store's claims on each database: leases, fair shares, tenants' caps, the circuit (run by store-contract.ts). */

const circuit = { threshold: 5, openMs: 30_000, maxOpenMs: 1_800_000 };

export function deliveryClaimsContract(): void {
  it('claims due deliveries once while leased, records outcomes, and lets another owner take over an expired lease', async () => {
    const db = await getDb();
    const now = 1_850_000_000_000;
    const published = await publishEvent(
      db,
      'contrato',
      { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_A.usuarioId, dados: { n: 1 }, idEvento: 'contrato-1' },
      now,
    );
    expect(published.entregas).toBeGreaterThanOrEqual(1);
    const again = await publishEvent(
      db,
      'contrato',
      { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_A.usuarioId, dados: {}, idEvento: 'contrato-1' },
      now,
    );
    expect(published.waiting).toHaveLength(published.entregas);
    expect(again).toEqual({ ...published, repeated: true, waiting: [] });

    const claim = (owner: string, at: number) =>
      claimDue(db, owner, { limit: 100, now: at, leaseMs: 10_000, perEndpoint: 100, perTenant: 1000 });
    const first = await claim('instancia-1', now);
    expect(first.length).toBe(published.entregas);
    expect(await claim('instancia-2', now + 1)).toEqual([]);
    // instancia-1 died: after its lease, instancia-2 takes the deliveries over; instancia-1's late outcome is not written.
    const takenOver = await claim('instancia-2', now + 10_001);
    expect(takenOver.sort()).toEqual([...first].sort());
    const [context] = await loadAttemptContexts(db, [first[0]!]);
    const outcome = {
      startedAt: now + 10_002,
      durationMs: 3,
      status: 204,
      body: '',
      error: null,
      outage: false,
      requestHeaders: { 'webhook-id': first[0]! },
    };
    const decision = { status: 'entregue' as const, nextAttemptAt: null, failingSince: null };
    expect(await recordAttempts(db, 'instancia-1', [{ context: context!, outcome, decision }], circuit)).toEqual([{ written: false }]);
    expect(await recordAttempts(db, 'instancia-2', [{ context: context!, outcome, decision }], circuit)).toEqual([{ written: true }]);
    const detail = await findDelivery(db, context!.config.id, first[0]!);
    expect(detail?.context.delivery).toMatchObject({ status: 'entregue', attempts: 1, lastStatus: 204 });
    expect(detail?.attempts).toEqual([expect.objectContaining({ number: 1, status: 204, headers: { 'webhook-id': first[0] } })]);
  });

  it('records a batch in one go: each event fanned out to its own tenant, in the order given, a repeat answering its first event', async () => {
    const db = await getDb();
    const now = 1_855_000_000_000;
    const approved = (usuarioId: string, idEvento?: string) => ({
      tipo: 'eventoAvaliacaoSaudeAprovada' as const,
      usuarioId,
      dados: {},
      ...(idEvento ? { idEvento } : {}),
    });
    const batch = [
      approved(TENANT_A.usuarioId, 'lote-1'),
      approved(TENANT_B.usuarioId),
      approved(TENANT_A.usuarioId),
      approved(TENANT_A.usuarioId, 'lote-1'),
    ];
    const published = await publishEvents(db, 'lote', batch, now);
    expect(published.map((event) => event.repeated)).toEqual([false, false, false, true]);
    expect(published[3]).toEqual({ ...published[0], repeated: true, waiting: [] });
    const configsOf = async (eventId: string) =>
      (await db('webhook_deliveries').where({ event_id: eventId }).orderBy('config_id').pluck('config_id')).map(String);
    const [a1, b, a2] = await Promise.all(published.slice(0, 3).map((event) => configsOf(event.id)));
    expect(a1!.length).toBe(published[0]!.entregas);
    expect(a1).toEqual(a2);
    expect(b).toEqual([WEBHOOK_IDS.b1]);
    expect(a1).not.toContain(WEBHOOK_IDS.b1);
    // In the batch's order: what an ordered configuration's queue sorts by.
    const created = await db('webhook_events')
      .whereIn(
        'id',
        published.slice(0, 3).map((event) => event.id),
      )
      .orderBy('created_at')
      .pluck('id');
    expect(created).toEqual(published.slice(0, 3).map((event) => event.id));
    expect(await publishEvents(db, 'lote', [approved(TENANT_A.usuarioId, 'lote-1')], now + 5)).toEqual([published[3]]);
  });

  it('shares claims round-robin across configurations, caps each one across instances, and skips an open circuit but for one probe', async () => {
    const db = await getDb();
    const now = 1_860_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    // Tenant A's ten configurations get 20 deliveries each (a backlog); tenant B's one gets 2.
    for (let i = 0; i < 20; i++) {
      await publishEvent(db, 'justo', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_A.usuarioId, dados: { i } }, now);
    }
    for (let i = 0; i < 2; i++) {
      await publishEvent(db, 'justo', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: { i } }, now);
    }
    await db('webhook_configs')
      .where({ id: WEBHOOK_IDS.a2 })
      .update({ circuit_failures: 5, circuit_open_until: now + 60_000 });
    const perConfig = async (ids: string[]) => {
      const rows = ids.length ? await db('webhook_deliveries').whereIn('id', ids).select<DbRow[]>('config_id') : [];
      const counts: Record<string, number> = {};
      for (const row of rows) counts[String(row.config_id)] = (counts[String(row.config_id)] ?? 0) + 1;
      return counts;
    };
    const settings = { now, leaseMs: 30_000, perEndpoint: 2, perTenant: 1000 };

    // Twelve slots over ten configurations that may be attempted: one each first, then a second for two.
    const first = await perConfig(await claimDue(db, 'instancia-1', { ...settings, limit: 12 }));
    expect(Object.keys(first)).toHaveLength(10);
    expect(first[WEBHOOK_IDS.a2]).toBeUndefined();
    expect(first[WEBHOOK_IDS.b1]).toBeGreaterThanOrEqual(1);
    expect(Object.values(first).reduce((sum, count) => sum + count, 0)).toBe(12);
    expect(Math.max(...Object.values(first))).toBe(2);

    // Another instance fills each configuration up to the cap, counting instancia-1's attempts in flight.
    const second = await perConfig(await claimDue(db, 'instancia-2', { ...settings, limit: 100 }));
    for (const id of Object.keys(first)) expect((first[id] ?? 0) + (second[id] ?? 0)).toBe(2);
    expect(second[WEBHOOK_IDS.a2]).toBeUndefined();
    expect(await claimDue(db, 'instancia-3', { ...settings, limit: 100 })).toEqual([]);

    // The open period is over: one probe for a2, however many slots there are.
    await db('webhook_configs')
      .where({ id: WEBHOOK_IDS.a2 })
      .update({ circuit_open_until: now - 1 });
    expect(await perConfig(await claimDue(db, 'instancia-3', { ...settings, limit: 100 }))).toEqual({ [WEBHOOK_IDS.a2]: 1 });
    await db('webhook_configs').where({ id: WEBHOOK_IDS.a2 }).update({ circuit_failures: 0, circuit_open_until: null });
  });

  it('serves tenants in turn before configurations, and caps each tenant’s attempts in flight across instances', async () => {
    const db = await getDb();
    const now = 1_865_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    // Tenant A (ten configurations) has waited longest, with 5 deliveries each; tenant B's one configuration has 3, newer.
    for (let i = 0; i < 5; i++) {
      await publishEvent(
        db,
        'inquilinos',
        { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_A.usuarioId, dados: { i } },
        now - 1000,
      );
    }
    for (let i = 0; i < 3; i++) {
      await publishEvent(db, 'inquilinos', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: { i } }, now);
    }
    const tenantOf = async (ids: string[]) => {
      const rows = ids.length ? await db('webhook_deliveries').whereIn('id', ids).select<DbRow[]>('config_id') : [];
      const counts = { a: 0, b: 0 };
      for (const row of rows) counts[String(row.config_id) === WEBHOOK_IDS.b1 ? 'b' : 'a']++;
      return counts;
    };
    const settings = { now, leaseMs: 30_000, perEndpoint: 2, perTenant: 3 };

    // Two slots: one for each tenant, although A's ten configurations all waited longer than B's.
    expect(await tenantOf(await claimDue(db, 'instancia-1', { ...settings, limit: 2 }))).toEqual({ a: 1, b: 1 });
    // Another instance fills each tenant up to its cap (A: 3), counting instancia-1's attempts, and B's configuration up to its own (2).
    expect(await tenantOf(await claimDue(db, 'instancia-2', { ...settings, limit: 100 }))).toEqual({ a: 2, b: 1 });
    expect(await claimDue(db, 'instancia-3', { ...settings, limit: 100 })).toEqual([]);
    // One of A's attempts ends: A may have one more in flight, and only one.
    const [leased] = await db('webhook_deliveries')
      .whereNot({ config_id: WEBHOOK_IDS.b1 })
      .andWhere('lease_until', '>=', now)
      .select<DbRow[]>('id');
    await db('webhook_deliveries')
      .where({ id: leased!.id })
      .update({ status: 'entregue', lease_owner: null, lease_until: null, next_attempt_at: null });
    expect(await tenantOf(await claimDue(db, 'instancia-3', { ...settings, limit: 100 }))).toEqual({ a: 1, b: 0 });
  });

  it('opens a configuration’s circuit after consecutive outages and closes it on an answer, recorded with the attempts', async () => {
    const db = await getDb();
    const now = 1_870_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    for (let i = 0; i < 3; i++) {
      await publishEvent(db, 'circuito', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: { i } }, now);
    }
    const ids = await claimDue(db, 'instancia-1', { limit: 10, now, leaseMs: 30_000, perEndpoint: 10, perTenant: 10 });
    expect(ids).toHaveLength(3);
    const record = async (id: string, status: number) => {
      const context = (await loadAttemptContexts(db, [id]))[0]!;
      const outcome = {
        startedAt: now + 1,
        durationMs: 5,
        status,
        body: '',
        error: status < 300 ? null : ('status-http' as const),
        outage: status >= 500,
        requestHeaders: {},
      };
      const decision = {
        status: status < 300 ? ('entregue' as const) : ('pendente' as const),
        nextAttemptAt: now + 5000,
        failingSince: null,
      };
      return recordAttempts(db, 'instancia-1', [{ context, outcome, decision }], { threshold: 2, openMs: 60_000, maxOpenMs: 600_000 });
    };
    expect(await record(ids[0]!, 503)).toEqual([{ written: true }]);
    const [opened] = await record(ids[1]!, 502);
    expect(opened?.circuit).toMatchObject({ change: 'opened', state: { failures: 2, openedAt: now + 6 } });
    const [row] = (await db('webhook_configs').where({ id: WEBHOOK_IDS.b1 })) as DbRow[];
    expect(toNumber(row!.circuit_failures)).toBe(2);
    expect(toNumber(row!.circuit_open_until)).toBeGreaterThanOrEqual(now + 6 + 48_000);
    // An attempt already in flight answers: the receiver is up again.
    const [closed] = await record(ids[2]!, 204);
    expect(closed?.circuit).toEqual({ change: 'closed', state: { failures: 0, openUntil: null, openedAt: null } });
    const [after] = (await db('webhook_configs').where({ id: WEBHOOK_IDS.b1 })) as DbRow[];
    expect(after!.circuit_open_until ?? null).toBeNull();
  });
}
