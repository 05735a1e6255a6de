import { z } from 'zod';

/**
 * The webhook configuration contract (service-interface.md §2.1, §4.1). No server imports: the
 * console's editor validates with the same schema as the PUT route.
 */

export const WEBHOOK_EVENT_FLAGS = [
  'eventoAvaliacaoSaudeAprovada',
  'eventoAvaliacaoSaudeAguardandoAprovacao',
  'eventoAvaliacaoSaudeArquivada',
  'eventoAvaliacaoSaudeDesarquivada',
  'eventoPropostaCancelada',
] as const;

export type WebhookEventFlag = (typeof WEBHOOK_EVENT_FLAGS)[number];

export const MAX_WEBHOOK_HEADERS = 20;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_HEADER_VALUE_BYTES = 4096;

export const webhookHeaderSchema = z.strictObject({
  chave: z.string().min(1).max(256),
  valor: z.string().max(MAX_HEADER_VALUE_BYTES),
});

export type WebhookHeader = z.infer<typeof webhookHeaderSchema>;

const eventFlagShape = Object.fromEntries(
  WEBHOOK_EVENT_FLAGS.map((flag) => [flag, z.boolean().optional()]),
) as Record<WebhookEventFlag, z.ZodOptional<z.ZodBoolean>>;

export const webhookUpdateSchema = z.strictObject({
  url: z.string().min(1).max(MAX_WEBHOOK_URL_LENGTH).optional(),
  headers: z.array(webhookHeaderSchema).max(MAX_WEBHOOK_HEADERS).optional(),
  ...eventFlagShape,
});

export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;

/** The configuration object of §2.1, exactly the fields the contract lists. */
export type WebhookConfiguration = {
  id: string;
  usuarioId: string;
  sistemaOrigem: number;
  url: string;
  clientId: string | null;
  headers: WebhookHeader[];
} & Record<WebhookEventFlag, boolean>;

// Any 8-4-4-4-12 hex identifier: ids minted by other systems need not carry an RFC 9562 version.
export const webhookIdSchema = z.guid();
