import { z } from 'zod';
import { ATTEMPT_ERRORS } from './attempt-errors';
import { EVENT_TYPE_OF_FLAG, EVENT_TYPES, PUBLISHED_EVENT_FLAGS, SCHEDULING_EVENT_FLAGS, TEST_EVENT_TYPE } from './types';
import { SCHEDULING_DATA_SCHEMAS } from './scheduling-payloads';
import { OPERATIONAL_EVENT_TYPES, OPERATOR_TENANT } from './operational';

/**
 * What a receiver gets (issue 22): the Standard Webhooks message `{type, timestamp, data}` of each
 * event type. The worker builds every message as a `WebhookMessage` (delivery/message.ts) and the
 * OpenAPI document's `webhooks` section is generated from these schemas (with each type's
 * description from its record in types.ts), so the two cannot drift;
 * e2e/api/webhook-catalogue.spec.ts validates real messages against the document. No server imports.
 */
export const TEST_MESSAGE_TEXT = 'Evento de teste enviado pelo Console de Integração.';

/** What every message's `data` carries besides the producer's own `dados`. */
const ownData = {
  idEvento: z.string().meta({ description: 'The producer’s idEvento, or the event’s own `evt_…` id when it sent none.' }),
  usuarioId: z.string().meta({ format: 'uuid', description: 'The tenant the notification is for (§2.1 usuarioId).' }),
};

/** An event's data: the producer's `dados` object as published, with idEvento and usuarioId added. */
export const eventDataSchema = z.looseObject(ownData).meta({
  description:
    'The producer’s `dados` (any JSON object of at most 32 KiB) with `idEvento` and `usuarioId` added; a field of `dados` with either name is replaced.',
});

export const testEventDataSchema = z.object({ ...ownData, mensagem: z.literal(TEST_MESSAGE_TEXT) });

function envelope<T extends string, D extends z.ZodType>(type: T, data: D, description: string) {
  return z
    .object({
      type: z.literal(type).meta({ description: 'The event type.' }),
      timestamp: z.iso.datetime().meta({ description: 'When the event was published (UTC), the same in every attempt.' }),
      data,
    })
    .meta({ description });
}

/**
 * Operational events (issue 31 §3), sent to the operator's receiver only (OPERATIONAL_WEBHOOK_URL):
 * which configuration, whose, why and since when; never a partner's headers, secret, URL path or
 * event data. `idEvento` is `{type}:{incidenteId or entregaId}`, one per incident or delivery.
 */
const operationalData = {
  idEvento: z.string().meta({ description: '`{type}:{incidenteId}` (or `:{entregaId}`): one per incident or exhausted delivery.' }),
  usuarioId: z
    .literal(OPERATOR_TENANT)
    .meta({ description: 'The operator’s reserved tenant, whose configuration receives operational events.' }),
  configuracao: z
    .object({
      id: z.guid().meta({ description: 'The partner’s configuration (the console shows it at /webhooks/{id}).' }),
      usuarioId: z.guid().meta({ description: 'The partner tenant it belongs to.' }),
      destino: z.string().meta({
        description: 'The receiver’s origin (scheme, host, port): never its path or query, which may carry the partner’s token.',
      }),
    })
    .meta({ description: 'The configuration the event is about.' }),
};
const incidentId = z.string().meta({ description: 'The incident (`alr_…`): the same in the configuracao.recuperada that ends it.' });
const instant = (description: string) => z.iso.datetime().meta({ description });
const lastAnswer = {
  motivo: z.enum(ATTEMPT_ERRORS).nullable().meta({ description: 'Why the last attempt failed (the delivery log’s `erro`).' }),
  ultimoStatus: z.number().int().nullable().meta({ description: 'The last attempt’s HTTP status, null when none came.' }),
};

export const OPERATIONAL_DATA_SCHEMAS = {
  [OPERATIONAL_EVENT_TYPES.disabled]: z.object({
    ...operationalData,
    incidenteId: incidentId,
    motivo: z.enum(['receptor-410', 'falhas-consecutivas']).meta({
      description:
        '`receptor-410`: the receiver answered 410 Gone; `falhas-consecutivas`: every attempt failed for WEBHOOK_DISABLE_AFTER_HOURS.',
    }),
    desde: instant('When the worker switched it off.'),
  }),
  [OPERATIONAL_EVENT_TYPES.circuitOpen]: z.object({
    ...operationalData,
    incidenteId: incidentId,
    ...lastAnswer,
    falhasSeguidas: z.number().int().meta({ description: 'Consecutive attempts that could not reach the receiver.' }),
    desde: instant('When the circuit opened (it has stayed open WEBHOOK_ALERT_CIRCUIT_MINUTES since).'),
  }),
  [OPERATIONAL_EVENT_TYPES.switchedOn]: z.object({
    ...operationalData,
    incidenteId: incidentId,
    desde: instant('When the worker switched it off.'),
    religadaEm: instant('When it was switched back on.'),
    receptorConfirmado: z.literal(false).meta({
      description: 'Always false: no delivery has reached the receiver yet. configuracao.recuperada follows once one does.',
    }),
    ignoradas: z.number().int().meta({ description: 'Deliveries skipped while it was off, kept for a recovery.' }),
    recuperacao: z
      .object({ desde: instant('The `desde` to give the recovery operation (POST …/recuperacao): the oldest skipped delivery.') })
      .nullable()
      .meta({ description: 'How to send the skipped deliveries again; null when none was skipped.' }),
  }),
  [OPERATIONAL_EVENT_TYPES.recovered]: z.object({
    ...operationalData,
    incidenteId: incidentId,
    incidente: z.enum(['desativada', 'circuito-aberto']).meta({
      description:
        'Which incident ended: switched off (`desativada`, switched back on since), or the receiver looked down (`circuito-aberto`).',
    }),
    desde: instant('When the incident began.'),
    recuperadaEm: instant('When a delivery to the receiver succeeded again (its attempt’s start).'),
  }),
  [OPERATIONAL_EVENT_TYPES.exhausted]: z.object({
    ...operationalData,
    entregaId: z.string().meta({ description: 'The delivery (`msg_…`, its webhook-id), in the configuration’s delivery log.' }),
    eventoId: z.string().meta({ description: 'The event (`evt_…`) it carried; its data stays in the log.' }),
    tipo: z.string().meta({ description: 'The event type the partner would have received.' }),
    tentativas: z.number().int().meta({ description: 'Attempts made.' }),
    ...lastAnswer,
    desde: instant('When the delivery was created.'),
    esgotadaEm: instant('When its last attempt ended.'),
  }),
};

/** Each event type's `data` schema, by the type a receiver sees. */
const DATA_SCHEMAS: Record<string, z.ZodObject> = {
  ...Object.fromEntries(PUBLISHED_EVENT_FLAGS.map((flag) => [EVENT_TYPE_OF_FLAG[flag], eventDataSchema])),
  ...Object.fromEntries(SCHEDULING_EVENT_FLAGS.map((flag) => [EVENT_TYPE_OF_FLAG[flag], SCHEDULING_DATA_SCHEMAS[flag]])),
  [TEST_EVENT_TYPE]: testEventDataSchema,
  ...OPERATIONAL_DATA_SCHEMAS,
};

/** Each event type's message schema, by the type a receiver sees: one per record of types.ts. */
export const MESSAGE_SCHEMAS: Record<string, z.ZodObject> = Object.fromEntries(
  EVENT_TYPES.map(({ type, description }) => [type, envelope(type, DATA_SCHEMAS[type]!, description)]),
);

/** The message the worker signs and sends. */
export type WebhookMessage = { type: string; timestamp: string; data: z.output<typeof eventDataSchema> };
