import { z } from 'zod';
import { EVENT_TYPE_OF_FLAG, TEST_EVENT_TYPE } from './delivery-contract';
import { WEBHOOK_EVENT_FLAGS, type WebhookEventFlag } from './fields';

/**
 * What a receiver gets (issue 22): the Standard Webhooks message `{type, timestamp, data}` of each
 * event type. The worker builds every message as a `WebhookMessage` (delivery/message.ts) and the
 * OpenAPI document's `webhooks` section is generated from these schemas, so the two cannot drift;
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

const FLAG_DESCRIPTIONS: Record<WebhookEventFlag, string> = {
  eventoAvaliacaoSaudeAprovada: 'A health evaluation was approved (configurations with eventoAvaliacaoSaudeAprovada on).',
  eventoAvaliacaoSaudeAguardandoAprovacao:
    'A health evaluation was filled in and awaits approval (configurations with eventoAvaliacaoSaudeAguardandoAprovacao on).',
  eventoAvaliacaoSaudeArquivada: 'A health evaluation was archived (configurations with eventoAvaliacaoSaudeArquivada on).',
  eventoAvaliacaoSaudeDesarquivada: 'A health evaluation was unarchived (configurations with eventoAvaliacaoSaudeDesarquivada on).',
  eventoPropostaCancelada: 'A single-life proposal was cancelled (configurations with eventoPropostaCancelada on).',
};

/** Each event type's message schema, by the type a receiver sees: the five flags' and the test event. */
export const MESSAGE_SCHEMAS = {
  ...(Object.fromEntries(
    WEBHOOK_EVENT_FLAGS.map((flag) => [
      EVENT_TYPE_OF_FLAG[flag],
      envelope(EVENT_TYPE_OF_FLAG[flag], eventDataSchema, FLAG_DESCRIPTIONS[flag]),
    ]),
  ) as Record<string, ReturnType<typeof envelope<string, typeof eventDataSchema>>>),
  [TEST_EVENT_TYPE]: envelope(
    TEST_EVENT_TYPE,
    testEventDataSchema,
    'A test event sent from the console or the API (POST …/teste), whatever the flags.',
  ),
};

/** The message the worker signs and sends. */
export type WebhookMessage = { type: string; timestamp: string; data: z.output<typeof eventDataSchema> };
