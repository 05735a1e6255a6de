import 'server-only';
import type { Knex } from 'knex';
import type { DbRow } from '@/lib/db/dialect';
import { TEST_EVENT_TYPE } from '../../events/types';
import { OPERATIONAL_EVENT_TYPES, OPERATIONAL_PRODUCER, OPERATOR_TENANT, receiverOrigin } from '../../events/operational';
import type { Candidate } from '../fair-share';
import { newId } from '../ids';
import { insertDeliveries, subscribedConfigs } from './queue';
import type { AttemptContext, AttemptOutcome } from './rows';

/**
 * Operational events the engine publishes itself (issue 31 §3), inside the caller's transaction,
 * so they are written exactly when what they tell of is: a delivery's last outcome (under its
 * lease, outcomes.ts), an incident's alert row raised or closed (lib/webhooks/alerts). They fan out
 * like any event, to the operator tenant's configurations subscribed to the type; no event row is
 * written when none is (OPERATIONAL_WEBHOOK_URL unset), nor twice for one idEvento. Answers the
 * configurations that got a pending delivery, for the worker to wake.
 */
export async function publishOperational(
  trx: Knex.Transaction,
  tipo: string,
  idEvento: string,
  dados: Record<string, unknown>,
  now: number,
): Promise<Candidate[]> {
  const subscribers = await subscribedConfigs(trx, OPERATOR_TENANT, tipo);
  if (subscribers.length === 0) return [];
  // Checked, not caught: on PostgreSQL a duplicate key would abort the caller's whole transaction.
  const earlier: DbRow[] = await trx('webhook_events').where({ producer: OPERATIONAL_PRODUCER, id_evento: idEvento }).select('id');
  if (earlier.length > 0) return [];
  const eventId = newId('evt', now);
  await trx('webhook_events').insert({
    id: eventId,
    producer: OPERATIONAL_PRODUCER,
    id_evento: idEvento,
    tipo,
    usuario_id: OPERATOR_TENANT,
    dados_json: JSON.stringify(dados),
    created_at: now,
  });
  return (await insertDeliveries(trx, eventId, subscribers, now)).waiting;
}

/**
 * `entrega.esgotada` for a delivery whose outcome leaves it `falhou`: no attempt will follow. Once
 * per delivery (its idEvento), a redelivery that fails again included. Not for a test event (staff
 * watch those in the console) nor for the operator's own deliveries: telling its receiver that a
 * message to it failed would only queue another message to it.
 */
export async function publishExhausted(
  trx: Knex.Transaction,
  { delivery, event, config }: AttemptContext,
  outcome: AttemptOutcome,
  attempts: number,
): Promise<Candidate[]> {
  if (event.usuarioId === OPERATOR_TENANT || event.tipo === TEST_EVENT_TYPE) return [];
  const endedAt = outcome.startedAt + outcome.durationMs;
  const tipo = OPERATIONAL_EVENT_TYPES.exhausted;
  return publishOperational(
    trx,
    tipo,
    `${tipo}:${delivery.id}`,
    {
      configuracao: { id: config.id, usuarioId: event.usuarioId, destino: receiverOrigin(config.url) },
      entregaId: delivery.id,
      eventoId: event.id,
      tipo: event.tipo,
      tentativas: attempts,
      motivo: outcome.error,
      ultimoStatus: outcome.status,
      desde: new Date(delivery.createdAt).toISOString(),
      esgotadaEm: new Date(endedAt).toISOString(),
    },
    endedAt,
  );
}
