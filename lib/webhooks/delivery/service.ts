import 'server-only';
import { env } from '@/lib/config/env';
import { getDb } from '@/lib/db/handle';
import { recordAudit } from '@/lib/audit/store';
import { maskSecret } from '@/lib/audit/masking';
import { ownerKey, type Principal } from '@/lib/auth/principal';
import { refuse } from '@/lib/errors/refusal';
import { log } from '@/lib/log';
import type { Delivery, DeliveryDetail, DeliveryStatus, DeliveryWait, PublishEvent, PublishedEvent } from './contract';
import { decryptSigningSecret, encryptSigningSecret, generateWebhookSecret } from '../configurations/secrets';
import { readEncryptedSecret, replaceEncryptedSecret } from '@/lib/webhooks/configurations/store/secrets';
import { type DeliveryControls, type StoredWebhook } from '@/lib/webhooks/configurations/store/rows';
import { getWebhook, readsHeaderValues } from '../configurations/service/access';
import { assertPublishRoom, assertTestEventRoom } from './quotas';
import { phaseOf } from './circuit';
import { messageBody, OWN_HEADERS } from './message';
import {
  createTestDelivery,
  findDelivery,
  listDeliveries,
  publishEvents,
  findReceiverState,
  queueHead,
  recoverDeliveries,
  requeueDelivery,
  skippedDeliveries,
  type DeliveryRow,
  type ReceiverState,
} from './store';
import { deliveryWorker } from './process-worker';

/**
 * Webhook deliveries as callers see them. Everything about a configuration's deliveries (log,
 * redelivery, recovery, test events, its secret) is for its owner and staff with the webhooks role:
 * getWebhook answers anyone else 404, exactly as for an unknown id.
 */
const DELIVERY_ID = /^msg_[0-9a-z]{29}$/;

/** A producer's events, one or a batch (all recorded or none), each answered in the order given. */
export async function publish(principal: Principal, inputs: readonly PublishEvent[]): Promise<(PublishedEvent & { repeated: boolean })[]> {
  const producer = ownerKey(principal);
  const now = Date.now();
  const published = await publishEvents(await getDb(), producer, inputs, now, (trx, count) => assertPublishRoom(trx, producer, now, count));
  for (const [index, { id, entregas, repeated }] of published.entries()) {
    // Ids and counts only: `dados` may carry personal data.
    log.info('webhook.event_published', { eventId: id, tipo: inputs[index]!.tipo, deliveries: entregas, repeated });
  }
  const waiting = published.flatMap((event) => event.waiting);
  if (waiting.length > 0) deliveryWorker().wake(waiting);
  return published.map(({ waiting: _waiting, ...event }) => event);
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

type EventRef = { tipo: string; idEvento: string; eventId: string };

/** What a configuration's pending deliveries may be waiting for, besides their own next attempt. */
type Holds = {
  receiver: ReceiverState;
  controls: DeliveryControls;
  head: { id: string; idEvento: string; failingSince: number | null } | null;
};

/** Why a pending delivery that is not in flight waits, and until when if known: worst first. */
function waitOf(
  delivery: DeliveryRow,
  { receiver, controls, head }: Holds,
  now: number,
): { why: DeliveryWait; until: number | null } | null {
  if (phaseOf(receiver.circuit, now) === 'open') return { why: 'circuito-aberto', until: receiver.circuit.openUntil };
  if (receiver.pausedUntil !== null && receiver.pausedUntil > now) return { why: 'pausa-do-receptor', until: receiver.pausedUntil };
  if (controls.ordered && head !== null && head.id !== delivery.id) return { why: 'entrega-anterior', until: null };
  const due = delivery.nextAttemptAt !== null && delivery.nextAttemptAt <= now;
  if (controls.ratePerSecond !== null && due) return { why: 'limite-de-taxa', until: null };
  return null;
}

function deliveryView(delivery: DeliveryRow, event: EventRef, holds: Holds, now: number): Delivery {
  const inFlight = delivery.leaseUntil !== null && delivery.leaseUntil >= now;
  const wait = delivery.status === 'pendente' && !inFlight ? waitOf(delivery, holds, now) : null;
  return {
    id: delivery.id,
    idEvento: event.idEvento,
    eventoId: event.eventId,
    tipo: event.tipo,
    status: delivery.status,
    tentativas: delivery.attempts,
    criadaEm: new Date(delivery.createdAt).toISOString(),
    proximaTentativaEm: iso(wait?.until ? Math.max(wait.until, delivery.nextAttemptAt ?? 0) : delivery.nextAttemptAt),
    emAndamento: inFlight,
    aguardando: wait?.why ?? null,
    retidaPor: wait?.why === 'entrega-anterior' && holds.head ? heldBy(holds.head) : null,
    ultimaResposta:
      delivery.lastAttemptAt === null
        ? null
        : { status: delivery.lastStatus, duracaoMs: delivery.lastDurationMs ?? 0, corpo: delivery.lastBody, erro: delivery.lastError },
  };
}

/** The ordered queue's head that holds the rest: since when it fails, and when it is given up (WEBHOOK_ORDERED_HOLD_MINUTES). */
function heldBy(head: NonNullable<Holds['head']>): Delivery['retidaPor'] {
  const holdMs = env().WEBHOOK_ORDERED_HOLD_MINUTES * 60_000;
  return {
    entregaId: head.id,
    idEvento: head.idEvento,
    desde: iso(head.failingSince),
    liberacaoEm: head.failingSince === null ? null : iso(head.failingSince + holdMs),
  };
}

async function holdsOf(stored: StoredWebhook): Promise<Holds> {
  const db = await getDb();
  const head = stored.controls.ordered ? await queueHead(db, stored.config.id) : null;
  return { receiver: await findReceiverState(db, stored.config.id), controls: stored.controls, head };
}

export async function deliveriesOf(
  principal: Principal,
  configId: string,
  query: { status?: DeliveryStatus; limite: number; antes?: string; evento?: string },
): Promise<Delivery[]> {
  const stored = await getWebhook(principal, configId);
  const rows = await listDeliveries(await getDb(), configId, {
    status: query.status,
    limit: query.limite,
    before: query.antes === undefined ? undefined : Date.parse(query.antes),
    event: query.evento,
  });
  const now = Date.now();
  const holds = await holdsOf(stored);
  return rows.map((row) => deliveryView(row.delivery, row, holds, now));
}

async function visibleDelivery(principal: Principal, configId: string, deliveryId: string) {
  const stored = await getWebhook(principal, configId);
  const found = DELIVERY_ID.test(deliveryId) ? await findDelivery(await getDb(), configId, deliveryId) : undefined;
  if (!found) throw refuse.notFound('Delivery not found.');
  return { ...found, holds: await holdsOf(stored) };
}

export async function deliveryDetail(principal: Principal, configId: string, deliveryId: string): Promise<DeliveryDetail> {
  const { context, attempts, holds } = await visibleDelivery(principal, configId, deliveryId);
  const headersOf = readsHeaderValues(principal) ? (sent: Record<string, string>) => sent : ownHeadersOnly;
  const { event } = context;
  return {
    ...deliveryView(context.delivery, { tipo: event.tipo, idEvento: event.idEvento ?? event.id, eventId: event.id }, holds, Date.now()),
    // The body as the latest attempt sent it (payload control shapes it); before any, as it would go unshaped.
    requisicao: {
      url: context.config.url,
      corpo: attempts.findLast((attempt) => attempt.requestBody !== null)?.requestBody ?? messageBody(event),
    },
    tentativasDetalhadas: attempts.map((attempt) => ({
      numero: attempt.number,
      em: new Date(attempt.startedAt).toISOString(),
      status: attempt.status,
      duracaoMs: attempt.durationMs,
      corpo: attempt.body,
      erro: attempt.error,
      cabecalhos: headersOf(attempt.headers),
    })),
  };
}

/** The headers an attempt sent, as a reader of names only sees them: custom headers' values masked. */
function ownHeadersOnly(sent: Record<string, string>): Record<string, string> {
  const own: readonly string[] = OWN_HEADERS;
  return Object.fromEntries(
    Object.entries(sent).map(([name, value]) => [name, own.includes(name.toLowerCase()) ? value : maskSecret(value)]),
  );
}

/**
 * Queues a delivery again at once. While an attempt of it is in flight the answer is 409 with
 * Retry-After (the attempt ends within WEBHOOK_TIMEOUT_MS): queueing it then would send the message
 * twice at once and lose that attempt's record.
 */
export async function redeliver(principal: Principal, configId: string, deliveryId: string): Promise<{ id: string }> {
  const { context } = await visibleDelivery(principal, configId, deliveryId);
  if (!(await requeueDelivery(await getDb(), deliveryId, Date.now()))) {
    throw refuse.conflict(
      'delivery-in-flight',
      'An attempt of this delivery is in progress; send it again once it ends.',
      Math.ceil(env().WEBHOOK_TIMEOUT_MS / 1000),
    );
  }
  deliveryWorker().wake([{ configId, tenant: context.event.usuarioId }]);
  return { id: deliveryId };
}

export async function recover(principal: Principal, configId: string, since: string): Promise<{ reenviadas: number }> {
  const stored = await getWebhook(principal, configId);
  const reenviadas = await recoverDeliveries(await getDb(), configId, Date.parse(since), Date.now());
  if (reenviadas > 0) deliveryWorker().wake([{ configId, tenant: stored.config.usuarioId }]);
  return { reenviadas };
}

/**
 * What a recovery would send again after deliveries are switched back on (issue 45): the skipped
 * ones, how many and since when; undefined when none was skipped.
 */
export async function recoveryOffer(configId: string): Promise<{ ignoradas: number; desde: string } | undefined> {
  const skipped = await skippedDeliveries(await getDb(), configId);
  return skipped.count > 0 && skipped.oldest !== null
    ? { ignoradas: skipped.count, desde: new Date(skipped.oldest).toISOString() }
    : undefined;
}

export async function sendTestEvent(principal: Principal, configId: string): Promise<{ id: string }> {
  const stored = await getWebhook(principal, configId);
  const now = Date.now();
  const id = await createTestDelivery(await getDb(), configId, stored.config.usuarioId, ownerKey(principal), now, (trx) =>
    assertTestEventRoom(trx, configId, now),
  );
  deliveryWorker().wake([{ configId, tenant: stored.config.usuarioId }]);
  return { id };
}

export async function secretOf(principal: Principal, configId: string): Promise<{ segredo: string }> {
  await getWebhook(principal, configId);
  return { segredo: decryptSigningSecret(configId, String(await readEncryptedSecret(await getDb(), configId))) };
}

/** A new secret; the previous one keeps signing beside it for WEBHOOK_SECRET_OVERLAP_HOURS. */
export async function rotateSecret(principal: Principal, configId: string): Promise<{ segredo: string }> {
  await getWebhook(principal, configId);
  const segredo = generateWebhookSecret();
  const now = Date.now();
  const db = await getDb();
  await db.transaction(async (trx) => {
    await replaceEncryptedSecret(
      trx,
      configId,
      encryptSigningSecret(configId, segredo),
      now + env().WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000,
    );
    await recordAudit(trx, {
      principal,
      action: 'webhook.secret_rotate',
      target: `webhook:${configId}`,
      outcome: 'rotated',
      httpStatus: 200,
    });
  });
  return { segredo };
}
