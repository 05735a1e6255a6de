import { expect, it } from 'vitest';
import { getDb } from '@/lib/db/handle';
import { type DbRow } from '@/lib/db/dialect';
import {
  claimAmong,
  claimDue,
  loadAttemptContexts,
  publishEvent,
  recordAttempts,
  requeueDelivery,
  waitingCandidates,
} from '@/lib/webhooks/delivery/store';
import { sweepRetention } from '@/lib/retention';
import { TENANT_B, WEBHOOK_IDS } from '@/e2e/support/test-seed';

/** The delivery store's controls, requeues and pruning on each database (run by store-contract.ts). */

const circuit = { threshold: 5, openMs: 30_000, maxOpenMs: 1_800_000 };

export function deliveryControlsContract(): void {
  it('delivery controls: ordered delivery sends the head alone, a rate limit paces claims across instances, a pause holds them', async () => {
    const db = await getDb();
    const now = 1_875_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    const b1 = WEBHOOK_IDS.b1;
    const settings = { leaseMs: 30_000, perEndpoint: 4, perTenant: 8, limit: 10 };
    const publish = async (count: number, at: number) => {
      for (let i = 0; i < count; i++) {
        await publishEvent(db, 'controles', { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_B.usuarioId, dados: { i } }, at + i);
      }
    };
    const record = async (id: string, at: number, status: 'entregue' | 'pendente', nextAttemptAt: number | null, owner = 'instancia-1') => {
      const [context] = await loadAttemptContexts(db, [id]);
      const outcome = {
        startedAt: at,
        durationMs: 1,
        status: status === 'entregue' ? 204 : 500,
        body: '',
        error: null,
        outage: false,
        requestHeaders: {},
      };
      return recordAttempts(db, owner, [{ context: context!, outcome, decision: { status, nextAttemptAt, failingSince: null } }], circuit);
    };
    const order = async (ids: string[]) =>
      (await db('webhook_deliveries').whereIn('id', ids).orderBy('created_at').select<DbRow[]>('id')).map((row) => String(row.id));

    // Ordered: one at a time, the oldest first, even while it waits for a retry.
    await db('webhook_configs').where({ id: b1 }).update({ ordered: true });
    await publish(3, now);
    const all = await order(await db('webhook_deliveries').where({ config_id: b1, status: 'pendente' }).pluck('id'));
    expect(await claimDue(db, 'instancia-1', { ...settings, now: now + 10 })).toEqual([all[0]]);
    expect(await claimDue(db, 'instancia-2', { ...settings, now: now + 11 })).toEqual([]);
    await record(all[0]!, now + 12, 'pendente', now + 5_000);
    expect(await claimDue(db, 'instancia-2', { ...settings, now: now + 13 })).toEqual([]);
    expect(await claimDue(db, 'instancia-2', { ...settings, now: now + 5_001 })).toEqual([all[0]]);
    await record(all[0]!, now + 5_002, 'entregue', null, 'instancia-2');
    expect(await claimDue(db, 'instancia-1', { ...settings, now: now + 5_003 })).toEqual([all[1]]);
    await db('webhook_configs').where({ id: b1 }).update({ ordered: false });
    await db('webhook_deliveries')
      .where({ config_id: b1 })
      .update({ status: 'falhou', next_attempt_at: null, lease_owner: null, lease_until: null });

    // 10 a second: a burst of 1, then one every 100 ms, whichever instance claims; the claim says when to come back.
    await db('webhook_configs').where({ id: b1 }).update({ rate_limit_per_second: 10, rate_tat: null });
    const later = now + 60_000;
    await publish(20, later);
    const claimed = async (owner: string, at: number) =>
      await claimAmong(db, owner, { ...settings, now: at }, await waitingCandidates(db, at));
    expect((await claimed('instancia-1', later + 100)).ids).toHaveLength(1);
    const held = await claimed('instancia-2', later + 150);
    expect(held.ids).toEqual([]);
    expect(held.wakeAt).toBe(later + 200);
    expect((await claimed('instancia-2', later + 200)).ids).toHaveLength(1);
    expect((await claimed('instancia-1', later + 450)).ids).toHaveLength(1);
    await db('webhook_configs').where({ id: b1 }).update({ rate_limit_per_second: null, rate_tat: null });

    // Paused by its receiver: not a candidate until then.
    await db('webhook_configs')
      .where({ id: b1 })
      .update({ paused_until: later + 10_000 });
    expect((await waitingCandidates(db, later + 500)).map((candidate) => candidate.configId)).not.toContain(b1);
    expect((await waitingCandidates(db, later + 10_000)).map((candidate) => candidate.configId)).toContain(b1);
    await db('webhook_configs').where({ id: b1 }).update({ paused_until: null });
    await db('webhook_deliveries')
      .where({ config_id: b1 })
      .update({ status: 'falhou', next_attempt_at: null, lease_owner: null, lease_until: null });
  });

  it('ordered delivery with a bound: a head failing for longer than the hold is given up and its configuration claimed for at once', async () => {
    const db = await getDb();
    const now = 1_877_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    const b1 = WEBHOOK_IDS.b1;
    await db('webhook_configs').where({ id: b1 }).update({ ordered: true });
    for (let i = 0; i < 2; i++) {
      await publishEvent(db, 'retencao', { tipo: 'eventoPropostaCancelada', usuarioId: TENANT_B.usuarioId, dados: { i } }, now + i);
    }
    const [head, next] = (
      await db('webhook_deliveries').where({ config_id: b1, status: 'pendente' }).orderBy('created_at').pluck('id')
    ).map(String);
    // The head has failed since `now` and waits for a retry far off: it holds the other.
    await db('webhook_deliveries')
      .where({ id: head })
      .update({ failing_since: now, next_attempt_at: now + 3_600_000, attempts: 3 });
    const settings = { leaseMs: 30_000, perEndpoint: 4, perTenant: 8, limit: 10, orderedHoldMs: 60_000 };
    const claim = async (at: number) => claimAmong(db, 'instancia-1', { ...settings, now: at }, await waitingCandidates(db, at));

    const held = await claim(now + 59_999);
    expect(held.ids).toEqual([]);
    expect(held.wakeAt).toBe(now + 60_000);

    const givenUp = await claim(now + 60_000);
    expect(givenUp.ids).toEqual([]);
    expect(givenUp.exhausted).not.toContain(b1);
    expect(givenUp.queued?.map((candidate) => candidate.configId)).toContain(b1);
    expect(await db('webhook_deliveries').where({ id: head }).first('status')).toEqual({ status: 'falhou' });
    expect((await claim(now + 60_001)).ids).toEqual([next]);

    await db('webhook_configs').where({ id: b1 }).update({ ordered: false });
    await db('webhook_deliveries')
      .where({ config_id: b1 })
      .update({ status: 'falhou', next_attempt_at: null, lease_owner: null, lease_until: null });
  });

  it('does not requeue a delivery whose attempt is in flight, and does once its lease is over', async () => {
    const db = await getDb();
    const now = 1_880_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    await publishEvent(db, 'reenvio', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: {} }, now);
    const [id] = await claimDue(db, 'instancia-1', { limit: 1, now, leaseMs: 30_000, perEndpoint: 4, perTenant: 4 });
    expect(await requeueDelivery(db, id!, now + 10)).toBe(false);
    expect(await db('webhook_deliveries').where({ id, lease_owner: 'instancia-1' })).toHaveLength(1);
    expect(await requeueDelivery(db, id!, now + 30_001)).toBe(true);
  });

  it('prunes delivery history and, when asked, the audit trail in batches, keeping what is young or still pending', async () => {
    // Batches of two, without the pauses that keep a real purge to 5 % of the time.
    const unpaced = { batch: 2, pause: () => Promise.resolve() };
    const db = await getDb();
    const day = 86_400_000;
    const now = 1_890_000_000_000;
    const old = now - 91 * day;
    const oldEvents = [];
    for (let i = 0; i < 4; i++) {
      oldEvents.push(
        await publishEvent(db, 'retencao', { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: { i } }, old),
      );
    }
    const young = await publishEvent(
      db,
      'retencao',
      { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: {} },
      now,
    );
    // Three old ones finished (one with an attempt on record); the fourth is still pending.
    await db('webhook_deliveries')
      .whereIn(
        'event_id',
        oldEvents.slice(0, 3).map((event) => event.id),
      )
      .update({ status: 'entregue', next_attempt_at: null });
    const [finished] = await db('webhook_deliveries').where({ event_id: oldEvents[0]!.id }).select<DbRow[]>('id');
    await db('webhook_attempts').insert({
      id: `att_retencao_${now}`,
      delivery_id: String(finished!.id),
      attempt_no: 1,
      started_at: old,
      duration_ms: 1,
      status: 204,
      request_headers_json: '{}',
    });
    await db('audit_events').insert(
      [1, 2, 3].map((n) => ({
        id: `retencao-${n}-${now}`,
        at_ms: old + n,
        actor_kind: 'system',
        actor_id: 'retencao',
        action: 'webhook.update',
        target: 't',
        outcome: 'ok',
      })),
    );
    const kept = await sweepRetention(db, { deliveryDays: 90 }, now, unpaced);
    expect(kept.deliveries).toBeGreaterThanOrEqual(3);
    expect(kept.audit).toBe(0);
    expect(
      await db('webhook_events').whereIn(
        'id',
        oldEvents.slice(0, 3).map((event) => event.id),
      ),
    ).toHaveLength(0);
    expect(await db('webhook_attempts').where({ delivery_id: String(finished!.id) })).toHaveLength(0);
    expect(await db('webhook_events').where({ id: oldEvents[3]!.id })).toHaveLength(1);
    expect(await db('webhook_deliveries').where({ event_id: oldEvents[3]!.id })).toHaveLength(1);
    expect(await db('webhook_deliveries').where({ event_id: young.id })).toHaveLength(1);
    expect(await db('audit_events').where('id', 'like', 'retencao-%')).toHaveLength(3);
    const withAudit = await sweepRetention(db, { deliveryDays: 90, auditDays: 90 }, now, unpaced);
    expect(withAudit.audit).toBeGreaterThanOrEqual(3);
    expect(await db('audit_events').where('id', 'like', 'retencao-%')).toHaveLength(0);
  });
}
