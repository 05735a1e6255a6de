import { z } from 'zod';
import { hasControlCharacters, noControlCharacters } from '@/lib/validation/text';
import { DELIVERY_STATUSES, type DeliveryStatus } from './fields';
import { ATTEMPT_ERRORS, type AttemptError } from '../events/attempt-errors';
import { PUBLISHED_EVENT_FLAGS, type WebhookEventFlag } from '../events/types';
import { KINDS } from '../configurations/destinations/kinds';

/**
 * Webhook deliveries (issue 10, following the Standard Webhooks specification): what a producer
 * publishes, what a receiver gets, and the delivery log as the API answers it. No server imports:
 * the console reads the same types and names.
 */

export const MAX_EVENT_DATA_BYTES = 32 * 1024;

export const publishEventSchema = z.strictObject({
  tipo: z.enum(PUBLISHED_EVENT_FLAGS).meta({ description: 'The §2.1 flag whose configurations receive the event.' }),
  usuarioId: z.guid().transform((value) => value.toLowerCase()),
  dados: z
    .record(z.string(), z.unknown())
    .refine((value) => new TextEncoder().encode(JSON.stringify(value)).length <= MAX_EVENT_DATA_BYTES, {
      params: { key: 'eventDataTooLarge', max: MAX_EVENT_DATA_BYTES },
    })
    .meta({ description: `A JSON object of at most ${MAX_EVENT_DATA_BYTES} bytes, sent to receivers inside \`data\`.` }),
  idEvento: z
    .string()
    .min(1)
    .max(100)
    .refine((value) => !hasControlCharacters(value), noControlCharacters)
    .optional()
    .meta({ description: 'The producer’s own id: the same id again answers the first event and sends nothing twice.' }),
});
/** What the store records: a producer's event, or one the product publishes itself (a scheduling event). */
export type PublishEvent = Omit<z.output<typeof publishEventSchema>, 'tipo'> & { tipo: WebhookEventFlag };

export const publishedEventSchema = z.object({ id: z.string(), entregas: z.number().int() });
export type PublishedEvent = z.infer<typeof publishedEventSchema>;

/** Events per batch: a producer with many to send sends them in a few requests (issue 45 §5). */
export const MAX_BATCH_EVENTS = 100;
export const publishBatchSchema = z.strictObject({
  eventos: z
    .array(publishEventSchema)
    .min(1)
    .max(MAX_BATCH_EVENTS)
    .meta({ description: `1 to ${MAX_BATCH_EVENTS} events, each as the single publish takes it; recorded all together or not at all.` }),
});
export const publishedBatchSchema = z.object({
  eventos: z
    .array(
      publishedEventSchema.extend({
        repetido: z.boolean().meta({
          description: 'true: an idEvento already published (or earlier in this batch); `id` is that first event, nothing sent again.',
        }),
      }),
    )
    .meta({ description: 'Each event’s outcome, in the order given.' }),
});

export { DELIVERY_STATUSES };
export type { DeliveryStatus };

export { ATTEMPT_ERRORS, type AttemptError };

const attemptErrorSchema = z
  .enum(ATTEMPT_ERRORS)
  .nullable()
  .meta({
    description: `Why the attempt failed (null: it did not). Any kind: \`tempo-esgotado\`, \`conexao-recusada\`, \`dns\`, \`tls\`, \`erro-rede\`, \`destino-bloqueado\` (a private address), \`erro-interno\`. ${KINDS.map((kind) => kind.failuresDescription).join(' ')} A broker attempt has no \`status\`. Payload control: \`transformacao\` (the configuration’s transformation threw, hit a limit or returned something invalid; the attempt’s \`corpo\` says why).`,
  });

export const deliveryListQuerySchema = z.strictObject({
  status: z.enum(DELIVERY_STATUSES).optional(),
  evento: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'Only the deliveries of this event: the producer’s `idEvento`, or the `evt_…` id the publish answered.' }),
  limite: z.coerce.number().int().min(1).max(200).default(50),
  antes: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only deliveries created before this instant (paging).' }),
});

export const recoverySchema = z.strictObject({
  desde: z.iso.datetime({ offset: true }).meta({ description: 'Failed and skipped deliveries created since this instant are sent again.' }),
});

const lastResponseSchema = z.object({
  status: z.number().int().nullable(),
  duracaoMs: z.number().int(),
  corpo: z.string().nullable().meta({ description: 'The first 1 KiB of the receiver’s answer.' }),
  erro: attemptErrorSchema,
});

/** Why a pending delivery is not being attempted although it is due. */
export const DELIVERY_WAITS = ['circuito-aberto', 'pausa-do-receptor', 'limite-de-taxa', 'entrega-anterior'] as const;
export type DeliveryWait = (typeof DELIVERY_WAITS)[number];

export const deliverySchema = z.object({
  id: z.string().meta({ description: 'The `webhook-id` header: the same on every attempt.' }),
  idEvento: z.string().meta({ description: 'The producer’s idEvento (the event’s own id when it sent none).' }),
  eventoId: z.string().meta({ description: 'The `evt_…` id the publish answered.' }),
  tipo: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  tentativas: z.number().int(),
  criadaEm: z.string(),
  proximaTentativaEm: z.string().nullable(),
  emAndamento: z.boolean().meta({ description: 'An attempt is being made right now; a redelivery waits until it ends (409).' }),
  aguardando: z.enum(DELIVERY_WAITS).nullable().meta({
    description:
      'Why a pending delivery waits: `circuito-aberto`, the receiver looks down (see the configuration’s `circuito`); `pausa-do-receptor`, the receiver asked for a pause (429 or 503 with Retry-After); `limite-de-taxa`, the configuration’s `limiteEntregasPorSegundo`; `entrega-anterior`, with `entregaOrdenada`, an earlier delivery goes first.',
  }),
  ultimaResposta: lastResponseSchema.nullable(),
  retidaPor: z
    .object({
      entregaId: z.string().meta({ description: 'The delivery at the head of the queue, that the others wait for.' }),
      idEvento: z.string().meta({ description: 'Its event’s idEvento (the event’s own id when it sent none).' }),
      desde: z
        .string()
        .nullable()
        .meta({ description: 'Since when it has been failing, holding the others back (null: it has not failed yet).' }),
      liberacaoEm: z.string().nullable().meta({
        description:
          'When it is given up (`falhou`, WEBHOOK_ORDERED_HOLD_MINUTES after `desde`) and the others move on, unless it is delivered first.',
      }),
    })
    .nullable()
    .meta({ description: 'With `aguardando: entrega-anterior`: which delivery holds this one back, and since when.' }),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const attemptSchema = z.object({
  numero: z.number().int(),
  em: z.string(),
  status: z.number().int().nullable(),
  duracaoMs: z.number().int(),
  corpo: z.string().nullable(),
  erro: attemptErrorSchema,
  cabecalhos: z.record(z.string(), z.string()).meta({
    description:
      'The request headers sent; the signature and the values of custom headers whose names look like credentials (Authorization, Cookie, …key, …token, …secret…) masked.',
  }),
});

export const deliveryDetailSchema = deliverySchema.extend({
  requisicao: z.object({ url: z.string(), corpo: z.string() }),
  tentativasDetalhadas: z.array(attemptSchema),
});
export type DeliveryDetail = z.infer<typeof deliveryDetailSchema>;

export const webhookSecretSchema = z.object({ segredo: z.string() });
export const deliveryCreatedSchema = z.object({ id: z.string() });
export const recoveryResultSchema = z.object({ reenviadas: z.number().int() });
