import type { WebhookHeader } from '@/lib/webhooks/configurations/contract';
import type { WebhookEventFlag } from '@/lib/webhooks/events/types';
import type { CredentialsValues } from './destination-kind';

/**
 * The values the create form and the editor share, which their cards (headers, events, delivery
 * state) read through the form's context: in a file of its own so those cards need not import the
 * editor that renders them.
 */
export type WebhookFormValues = { url: string; headers: WebhookHeader[]; ativo: boolean; credenciais: CredentialsValues } & Record<
  WebhookEventFlag,
  boolean
>;
