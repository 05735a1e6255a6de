import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { getDb } from '@/lib/db/handle';
import { toNumber, type DbRow } from '@/lib/db/dialect';
import { Refusal } from '@/lib/errors/refusal';
import type { ApiClientPrincipal, StaffPrincipal } from '@/lib/auth/principal';
import { createWebhook } from '@/lib/webhooks/configurations/service/create';
import { deleteWebhook } from '@/lib/webhooks/configurations/service/delete';
import { assertPublishRoom, assertTestEventRoom } from '@/lib/webhooks/delivery/quotas';
import { createTestDelivery, publishEvent } from '@/lib/webhooks/delivery/store';
import { deliveryTriage } from '@/lib/webhooks/alerts/triage';
import { alertsFor } from '@/lib/webhooks/alerts/service';
import { recordIncident } from '@/lib/webhooks/alerts/store';
import { resetEnv } from '@/lib/testing/hooks';
import { wireWebhooks } from '@/lib/webhooks/wiring';

// The configurations' hooks, as a server's start wires them.
wireWebhooks();

/**
 * Isolation against hostile and broken tenants (issue 27), on each database of the repository
 * contract (store-contract.ts): the quotas hold when requests race, and the staff lists put
 * every tenant's incident within reach of the first page. Tenants of their own, cleaned up after.
 */
const staff: StaffPrincipal = { kind: 'staff', userId: 'u-isolation', email: 'admin@e2e.exemplo.com.br', name: 'Ana', roles: ['admin'] };

/** Runs `work` with these settings, then the runner's own again. */
async function withSettings<T>(settings: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(settings).map((key) => [key, process.env[key]]));
  Object.assign(process.env, settings);
  resetEnv();
  try {
    return await work();
  } finally {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetEnv();
  }
}

const createFor = (usuarioId: string, index: number) =>
  createWebhook(staff, { usuarioId, sistemaOrigem: 1, url: `https://r${index}.isolamento.exemplo.com.br/`, eventoPropostaCancelada: true });

/** The refusal a rejected promise holds, as a plain object to compare. */
function refusalOf(result: PromiseSettledResult<unknown> | undefined) {
  if (result?.status !== 'rejected' || !(result.reason instanceof Refusal)) return undefined;
  return { kind: result.reason.kind, ...result.reason.options };
}

export function isolationContract(): void {
  it('keeps a tenant within MAX_WEBHOOKS_PER_TENANT when its creates race: exactly the limit is kept, the rest refused naming it', async () => {
    const db = await getDb();
    const tenant = randomUUID();
    const other = randomUUID();
    await withSettings({ MAX_WEBHOOKS_PER_TENANT: '4' }, async () => {
      const results = await Promise.allSettled(Array.from({ length: 9 }, (_, index) => createFor(tenant, index)));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(4);
      for (const refused of results.filter((result) => result.status === 'rejected')) {
        expect(refusalOf(refused)).toEqual({ kind: 'conflict', code: 'webhook-configuration-quota', extensions: { limite: 4 } });
      }
      const counted = (await db('webhook_configs').where({ usuario_id: tenant }).count({ n: '*' }).first()) as DbRow;
      expect(toNumber(counted.n)).toBe(4);
      // Another tenant's room is its own.
      await expect(createFor(other, 0)).resolves.toMatchObject({ config: { usuarioId: other } });
    });
    for (const row of await db('webhook_configs').whereIn('usuario_id', [tenant, other]).select<DbRow[]>('id')) {
      await deleteWebhook(staff, String(row.id));
    }
  });

  it('refuses a producer’s event past its rate in a sliding second, records nothing of it, and still answers a repeat', async () => {
    const db = await getDb();
    const producer = `taxa-${randomUUID()}`;
    const now = 1_910_000_000_000;
    const publishAt = (at: number, idEvento: string) =>
      publishEvent(db, producer, { tipo: 'eventoAvaliacaoSaudeArquivada', usuarioId: randomUUID(), dados: {}, idEvento }, at, (trx) =>
        assertPublishRoom(trx, producer, at),
      );
    await withSettings({ MAX_EVENTS_PER_SECOND: '3' }, async () => {
      for (const [offset, id] of [
        [0, 'e1'],
        [100, 'e2'],
        [200, 'e3'],
      ] as const)
        await publishAt(now + offset, id);
      const [refused] = await Promise.allSettled([publishAt(now + 300, 'e4')]);
      expect(refusalOf(refused)).toEqual({
        kind: 'throttled',
        code: 'publish-rate',
        retryAfterSeconds: 1,
        extensions: { limite: 3, janelaSegundos: 1 },
      });
      expect(await db('webhook_events').where({ producer })).toHaveLength(3);
      // A repeat writes nothing, so it is answered whatever the rate.
      await expect(publishAt(now + 300, 'e2')).resolves.toMatchObject({ repeated: true });
      // The first event has left the window a second later: room for one.
      await expect(publishAt(now + 1000, 'e4')).resolves.toMatchObject({ repeated: false });
      await expect(publishAt(now + 1001, 'e5')).rejects.toBeInstanceOf(Refusal);
    });
    await db('webhook_deliveries').whereIn('event_id', db('webhook_events').where({ producer }).select('id')).delete();
    await db('webhook_events').where({ producer }).delete();
  });

  it('refuses a configuration’s test event past its rate in a sliding minute, with Retry-After until the window has room', async () => {
    const db = await getDb();
    const tenant = randomUUID();
    const { config } = await createFor(tenant, 0);
    const now = 1_920_000_000_000;
    const testAt = (at: number) =>
      createTestDelivery(db, config.id, tenant, 'teste-taxa', at, (trx) => assertTestEventRoom(trx, config.id, at));
    await withSettings({ MAX_TEST_EVENTS_PER_MINUTE: '2' }, async () => {
      await testAt(now);
      await testAt(now + 1000);
      const [refused] = await Promise.allSettled([testAt(now + 2000)]);
      expect(refusalOf(refused)).toEqual({
        kind: 'throttled',
        code: 'test-event-rate',
        retryAfterSeconds: 58,
        extensions: { limite: 2, janelaSegundos: 60 },
      });
      // Racing test events count one after the other (the configuration's row lock): one passes.
      const raced = await Promise.allSettled([testAt(now + 60_000), testAt(now + 60_000), testAt(now + 60_000)]);
      expect(raced.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    });
    expect(await db('webhook_deliveries').where({ config_id: config.id })).toHaveLength(3);
    await deleteWebhook(staff, config.id);
    await db('webhook_events').where({ producer: 'teste-taxa' }).delete();
  });

  it('pages the staff lists worst first with tenants taking turns: many alerts of one tenant never push another’s off the first page', async () => {
    const db = await getDb();
    const now = Date.now();
    const hostile = randomUUID();
    const victim = randomUUID();
    const many = await Promise.all(Array.from({ length: 6 }, (_, index) => createFor(hostile, index)));
    const [down, healthy] = [await createFor(victim, 10), await createFor(victim, 11)];
    // Every one of the hostile tenant's receivers answered 410 (switched off, alerted); the victim's is down.
    for (const [index, { config }] of many.entries()) {
      await db('webhook_configs')
        .where({ id: config.id })
        .update({ enabled: false, disabled_reason: 'receptor-410', disabled_at: now - 60_000 + index });
      await recordIncident(db, { configId: config.id, kind: 'desativada', since: now - 60_000 + index }, now);
    }
    await db('webhook_configs')
      .where({ id: down.config.id })
      .update({ circuit_failures: 5, circuit_open_until: now + 600_000, circuit_opened_at: now - 30_000, failing_since: now - 30_000 });
    await recordIncident(db, { configId: down.config.id, kind: 'circuito-aberto', since: now - 30_000 }, now);
    const ours = new Set([...many.map(({ config }) => config.id), down.config.id, healthy.config.id]);

    // Alerts, two a page: the hostile tenant's oldest and the victim's, then the rest, each once.
    const first = await alertsFor(staff, { limite: 2, pagina: 1 });
    expect(first.total).toBeGreaterThanOrEqual(7);
    expect(first.itens.map((alert) => alert.configuracaoId)).toEqual(expect.arrayContaining([many[0]!.config.id, down.config.id]));
    const seen: string[] = [];
    for (let pagina = 1; pagina <= Math.ceil(first.total / 2); pagina++) {
      seen.push(...(await alertsFor(staff, { limite: 2, pagina })).itens.map((alert) => alert.configuracaoId));
    }
    expect(seen.filter((id) => ours.has(id)).sort()).toEqual([...many.map(({ config }) => config.id), down.config.id].sort());
    expect(new Set(seen).size).toBe(seen.length);
    // A tenant sees its own only.
    const victimClient: ApiClientPrincipal = {
      kind: 'api-client',
      issuer: 'embedded',
      scopes: ['webhooks'],
      clientId: 'vitima',
      usuarioId: victim,
      sistemaOrigem: 1,
    };
    const own = await alertsFor(victimClient, { limite: 50, pagina: 1 });
    expect(own).toMatchObject({ total: 1, itens: [{ configuracaoId: down.config.id, tipo: 'circuito-aberto', usuarioId: victim }] });

    // Triage: every configuration with an open alert first, tenants taking turns, the healthy one after them.
    const triage = await deliveryTriage(staff, { limite: 2, pagina: 1 });
    expect(triage.itens.map((item) => item.id)).toEqual(expect.arrayContaining([many[0]!.config.id, down.config.id]));
    expect(triage.itens.every((item) => item.alerta !== null)).toBe(true);
    expect(triage.itens.find((item) => item.id === down.config.id)).toMatchObject({
      situacao: { estado: 'circuito-aberto' },
      alerta: { tipo: 'circuito-aberto' },
    });
    const all = await deliveryTriage(staff, { limite: 200, pagina: 1 });
    const order = all.itens.map((item) => item.id);
    expect(all.total).toBe(order.length);
    const lastAlerted = Math.max(...all.itens.flatMap((item, index) => (item.alerta ? [index] : [])));
    expect(order.indexOf(healthy.config.id)).toBeGreaterThan(lastAlerted);

    await db('webhook_alerts')
      .whereIn('config_id', [...ours])
      .delete();
    for (const id of ours) await deleteWebhook(staff, id);
  });
}
