import { expect, it } from 'vitest';
import { getDb } from '@/lib/db/handle';
import type { DbRow } from '@/lib/db/dialect';
import type { StaffPrincipal } from '@/lib/auth/principal';
import { EVENT_TYPE_OF_FLAG, OPERATIONAL_EVENT_TYPE_LIST } from '@/lib/webhooks/events/types';
import { deleteWebhookRow, findWebhook } from '@/lib/webhooks/configurations/store/configs';
import { updateWebhook } from '@/lib/webhooks/configurations/service/update';
import { deleteDeliveriesOf, findReceiverState } from '@/lib/webhooks/delivery/store';
import { deleteAlertsOf } from '@/lib/webhooks/alerts/store';
import {
  awaitingDelivery,
  confirmDelivered,
  markAwaitingDelivery,
  openAlerts,
  recordIncident,
  resolveEnded,
} from '@/lib/webhooks/alerts/store';
import {
  claimDue,
  createTestDelivery,
  firstDeliveredSince,
  loadAttemptContexts,
  publishEvent,
  recordAttempts,
  requeueDelivery,
  type AttemptContext,
} from '@/lib/webhooks/delivery/store';
import { publishConfirmed, publishIncident, publishIncidentEnd } from '@/lib/webhooks/alerts/incidents';
import { ensureOperatorWebhook } from '@/lib/webhooks/operational/operator-config';
import { OPERATIONAL_PRODUCER, OPERATOR_CONFIG_ID, OPERATOR_TENANT } from '@/lib/webhooks/events/operational';
import { TENANT_B, WEBHOOK_IDS } from '@/e2e/support/test-seed';
import { wireWebhooks } from '@/lib/webhooks/wiring';

// The configurations' hooks, as a server's start wires them.
wireWebhooks();

/**
 * Operational notifications (issue 31 §3) on each database of the repository contract: the
 * operator's configuration made from its setting, and operational events written with what they
 * tell of — an exhausted delivery's outcome (once per delivery, never about the operator's own or a
 * test event), an incident's alert row raised or closed (once, however many instances race).
 * Leaves the database as it found it (the operator's configuration deleted, b1 switched on).
 */
const staff: StaffPrincipal = { kind: 'staff', userId: 'u-operacional', email: 'admin@e2e.exemplo.com.br', name: 'Ana', roles: ['admin'] };
const circuit = { threshold: 5, openMs: 30_000, maxOpenMs: 1_800_000 };
const settings = (now: number) => ({ limit: 100, now, leaseMs: 30_000, perEndpoint: 100, perTenant: 100 });

async function operationalEvents(tipo?: string) {
  const db = await getDb();
  const query = db('webhook_events').where({ producer: OPERATIONAL_PRODUCER }).orderBy('created_at');
  const rows = (await (tipo ? query.andWhere({ tipo }) : query)) as DbRow[];
  return rows.map((row) => ({ tipo: String(row.tipo), idEvento: String(row.id_evento), dados: JSON.parse(String(row.dados_json)) }));
}

async function subscriptionsOfOperator(): Promise<string[]> {
  const db = await getDb();
  return (await db('webhook_subscriptions').where({ config_id: OPERATOR_CONFIG_ID }).orderBy('event_type').pluck('event_type')).map(String);
}

/** Claims what is due at `now` and records each of `configId`'s deliveries as failed for good. */
async function exhaust(configId: string, now: number, owner: string) {
  const db = await getDb();
  const ids = await claimDue(db, owner, settings(now));
  const contexts = (await loadAttemptContexts(db, ids)).filter((context) => context.config.id === configId);
  const records = contexts.map((context: AttemptContext) => ({
    context,
    // Not an outage: the circuit is another test's subject, and an open one would hold the next claims.
    outcome: { startedAt: now, durationMs: 7, status: 500, body: '', error: 'status-http' as const, outage: false, requestHeaders: {} },
    decision: { status: 'falhou' as const, nextAttemptAt: null, failingSince: null },
  }));
  const recorded = await recordAttempts(db, owner, records, circuit);
  // Whatever else was claimed goes back untouched.
  await db('webhook_deliveries').where({ lease_owner: owner }).update({ lease_owner: null, lease_until: null });
  return { contexts, recorded };
}

export function operationalContract(): void {
  it('makes the operator’s configuration from its URL once, follows a new URL, and drops its subscriptions when unset', async () => {
    const db = await getDb();
    await Promise.all([
      ensureOperatorWebhook(db, 'https://ops.exemplo.com.br/eventos'),
      ensureOperatorWebhook(db, 'https://ops.exemplo.com.br/eventos'),
    ]);
    const made = await findWebhook(db, OPERATOR_CONFIG_ID);
    expect(made).toMatchObject({
      config: { usuarioId: OPERATOR_TENANT, url: 'https://ops.exemplo.com.br/eventos', clientId: null, headers: [] },
      state: { enabled: true },
      version: 1,
    });
    expect(await subscriptionsOfOperator()).toEqual([...OPERATIONAL_EVENT_TYPE_LIST].sort());

    // Staff save it as any configuration (a header, a flag): its operational subscriptions stay.
    await updateWebhook(staff, OPERATOR_CONFIG_ID, { headers: [{ chave: 'X-Api-Key', valor: 'chave-do-operador' }] }, null);
    expect(await subscriptionsOfOperator()).toEqual([...OPERATIONAL_EVENT_TYPE_LIST].sort());

    await ensureOperatorWebhook(db, 'https://ops2.exemplo.com.br/eventos');
    expect((await findWebhook(db, OPERATOR_CONFIG_ID))?.config).toMatchObject({
      url: 'https://ops2.exemplo.com.br/eventos',
      headers: [{ chave: 'X-Api-Key', valor: 'chave-do-operador' }],
    });
    await ensureOperatorWebhook(db, undefined);
    expect(await subscriptionsOfOperator()).toEqual([]);
    expect(await findWebhook(db, OPERATOR_CONFIG_ID)).toBeDefined();
    await ensureOperatorWebhook(db, 'https://ops2.exemplo.com.br/eventos');
    expect(await subscriptionsOfOperator()).toEqual([...OPERATIONAL_EVENT_TYPE_LIST].sort());
  });

  it('publishes entrega.esgotada with the outcome that exhausts a partner’s delivery, once per delivery; never about a test event or the operator’s own', async () => {
    const db = await getDb();
    const now = 1_895_000_000_000;
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    const published = await publishEvent(
      db,
      'operacional',
      { tipo: 'eventoAvaliacaoSaudeAprovada', usuarioId: TENANT_B.usuarioId, dados: { segredo: 'dados do parceiro' }, idEvento: 'op-1' },
      now,
    );
    expect(published.entregas).toBe(1);
    const { contexts, recorded } = await exhaust(WEBHOOK_IDS.b1, now, 'instancia-1');
    expect(contexts).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ written: true, queued: [{ configId: OPERATOR_CONFIG_ID, tenant: OPERATOR_TENANT }] });
    const deliveryId = contexts[0]!.delivery.id;
    const [event] = await operationalEvents('entrega.esgotada');
    expect(event).toEqual({
      tipo: 'entrega.esgotada',
      idEvento: `entrega.esgotada:${deliveryId}`,
      dados: {
        configuracao: { id: WEBHOOK_IDS.b1, usuarioId: TENANT_B.usuarioId, destino: new URL(contexts[0]!.config.url).origin },
        entregaId: deliveryId,
        eventoId: published.id,
        tipo: EVENT_TYPE_OF_FLAG.eventoAvaliacaoSaudeAprovada,
        tentativas: 1,
        motivo: 'status-http',
        ultimoStatus: 500,
        desde: new Date(now).toISOString(),
        esgotadaEm: new Date(now + 7).toISOString(),
      },
    });
    expect(JSON.stringify(event)).not.toContain('dados do parceiro');
    const operatorDeliveries = await db('webhook_deliveries').where({ config_id: OPERATOR_CONFIG_ID, status: 'pendente' });
    expect(operatorDeliveries).toHaveLength(1);

    // Sent again by hand and exhausted again: still one event for the delivery.
    expect(await requeueDelivery(db, deliveryId, now + 100)).toBe(true);
    const again = await exhaust(WEBHOOK_IDS.b1, now + 100, 'instancia-2');
    expect(again.recorded[0]).toEqual({ written: true });
    // The operator's own delivery exhausts: nothing about it (it would go to the same receiver).
    const own = await exhaust(OPERATOR_CONFIG_ID, now + 200, 'instancia-3');
    expect(own.contexts).toHaveLength(1);
    expect(own.recorded[0]).toEqual({ written: true });
    // A test event that exhausts is the console's to show, not an incident.
    await createTestDelivery(db, WEBHOOK_IDS.b1, TENANT_B.usuarioId, 'operacional', now + 300);
    const test = await exhaust(WEBHOOK_IDS.b1, now + 300, 'instancia-4');
    expect(test.contexts.map((context) => context.event.tipo)).toEqual(['webhook.teste']);
    expect(await operationalEvents('entrega.esgotada')).toHaveLength(1);
  });

  it('publishes an incident’s event with its alert row and its recovery with the row’s closing, once however many instances race', async () => {
    const db = await getDb();
    const now = 1_896_000_000_000;
    await db('webhook_configs')
      .where({ id: WEBHOOK_IDS.b1 })
      .update({ enabled: false, disabled_reason: 'receptor-410', disabled_at: now - 1000 });
    const incident = { configId: WEBHOOK_IDS.b1, kind: 'desativada' as const, since: now - 1000 };
    const raised = await Promise.all(
      [0, 1, 2].map(() =>
        recordIncident(db, incident, now, async (trx, alertId) => void (await publishIncident(trx, alertId, incident, now))),
      ),
    );
    const alertIds = raised.filter((id) => id !== undefined);
    expect(alertIds).toHaveLength(1);
    expect(await operationalEvents('configuracao.desativada')).toEqual([
      {
        tipo: 'configuracao.desativada',
        idEvento: `configuracao.desativada:${alertIds[0]}`,
        dados: {
          incidenteId: alertIds[0],
          configuracao: { id: WEBHOOK_IDS.b1, usuarioId: TENANT_B.usuarioId, destino: expect.stringMatching(/^https:\/\/[^/]+$/) },
          motivo: 'receptor-410',
          desde: new Date(now - 1000).toISOString(),
        },
      },
    ]);

    // Switched on again: the incident is over; racing instances close it once, saying it is back on
    // with its receiver not confirmed yet (issue 45): no recovery before a delivery succeeds.
    await db('webhook_configs').where({ id: WEBHOOK_IDS.b1 }).update({ enabled: true, disabled_reason: null, disabled_at: null });
    const open = (await openAlerts(db)).filter((alert) => alert.configId === WEBHOOK_IDS.b1);
    const closed = await Promise.all(
      [0, 1, 2].map(() =>
        resolveEnded(db, open, [], now + 5000, async (trx, alert) => {
          const end = await publishIncidentEnd(trx, alert, now + 5000);
          if (end.awaiting) await markAwaitingDelivery(trx, alert.id, now + 5000);
        }),
      ),
    );
    expect(closed.flat().map((alert) => alert.id)).toEqual(alertIds);
    expect((await operationalEvents('configuracao.religada')).map((event) => event.dados)).toEqual([
      {
        incidenteId: alertIds[0],
        configuracao: expect.objectContaining({ id: WEBHOOK_IDS.b1 }),
        desde: new Date(now - 1000).toISOString(),
        religadaEm: new Date(now + 5000).toISOString(),
        receptorConfirmado: false,
        ignoradas: expect.any(Number),
        recuperacao: expect.toSatisfy((value: unknown) => value === null || typeof value === 'object'),
      },
    ]);
    expect(await operationalEvents('configuracao.recuperada')).toEqual([]);

    // A delivery to it succeeds: racing instances confirm it once, with one recovery at that attempt.
    const [awaiting] = (await awaitingDelivery(db)).filter((alert) => alert.configId === WEBHOOK_IDS.b1);
    expect(awaiting).toMatchObject({ id: alertIds[0], awaitingSince: now + 5000 });
    await db('webhook_attempts').insert({
      id: `att_confirma_${now}`,
      delivery_id: 'msg_contrato_confirmacao',
      config_id: WEBHOOK_IDS.b1,
      attempt_no: 99,
      started_at: now + 6000,
      duration_ms: 5,
      status: 204,
      body_excerpt: '',
      error: null,
      request_headers_json: '{}',
    });
    expect(await firstDeliveredSince(db, WEBHOOK_IDS.b1, awaiting!.awaitingSince)).toBe(now + 6000);
    await Promise.all(
      [0, 1, 2].map(() =>
        db.transaction(async (trx) => {
          if (await confirmDelivered(trx, awaiting!.id)) await publishConfirmed(trx, awaiting!, now + 6000);
        }),
      ),
    );
    expect((await operationalEvents('configuracao.recuperada')).map((event) => event.dados)).toEqual([
      {
        incidenteId: alertIds[0],
        configuracao: expect.objectContaining({ id: WEBHOOK_IDS.b1 }),
        incidente: 'desativada',
        desde: new Date(now - 1000).toISOString(),
        recuperadaEm: new Date(now + 6000).toISOString(),
      },
    ]);
    expect((await awaitingDelivery(db)).filter((alert) => alert.configId === WEBHOOK_IDS.b1)).toEqual([]);
    await db('webhook_attempts')
      .where({ id: `att_confirma_${now}` })
      .delete();

    // Nothing about the operator's own configuration: its receiver is the one in trouble.
    const own = { configId: OPERATOR_CONFIG_ID, kind: 'circuito-aberto' as const, since: now };
    await recordIncident(db, own, now, async (trx, alertId) => void (await publishIncident(trx, alertId, own, now)));
    expect(await operationalEvents('circuito.aberto')).toEqual([]);

    // The service refuses to delete it (the setting makes it again at each start): the scene is
    // cleared at the store, as a deployment that unset OPERATIONAL_WEBHOOK_URL would leave it.
    await db.transaction(async (trx) => {
      await deleteDeliveriesOf(trx, OPERATOR_CONFIG_ID);
      await deleteAlertsOf(trx, OPERATOR_CONFIG_ID);
      await deleteWebhookRow(trx, OPERATOR_CONFIG_ID);
    });
    await db('webhook_alerts').where({ config_id: WEBHOOK_IDS.b1 }).delete();
    await db('webhook_deliveries').where({ status: 'pendente' }).update({ status: 'falhou', next_attempt_at: null });
    expect(await findWebhook(db, WEBHOOK_IDS.b1)).toMatchObject({ state: { enabled: true } });
    expect(await findReceiverState(db, WEBHOOK_IDS.b1)).toMatchObject({ failingSince: null });
  });
}
