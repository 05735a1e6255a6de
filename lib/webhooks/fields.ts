/**
 * The webhook contracts' fixed values, without zod: the console's first load imports these, and
 * the schemas (contract.ts and delivery-contract.ts, which re-export them) only when a form is
 * checked.
 */
export const WEBHOOK_EVENT_FLAGS = [
  'eventoAvaliacaoSaudeAprovada',
  'eventoAvaliacaoSaudeAguardandoAprovacao',
  'eventoAvaliacaoSaudeArquivada',
  'eventoAvaliacaoSaudeDesarquivada',
  'eventoPropostaCancelada',
] as const;

export type WebhookEventFlag = (typeof WEBHOOK_EVENT_FLAGS)[number];

export const DELIVERY_STATUSES = ['pendente', 'entregue', 'falhou', 'ignorada'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
