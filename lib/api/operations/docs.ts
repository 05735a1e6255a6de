import { z } from 'zod';
import { commonProblems, problem } from '@/lib/openapi/fragments';
import { ref } from '@/lib/openapi/components';
import { textPathParam, uuidPathParam } from '@/lib/validation/path-params';

/** Documentation and path parameters that several operations share. */
export const notYours = problem('No configuration (or delivery) of yours has this id.');

/** Operations on one configuration's deliveries: the owner and staff with the webhooks role only. */
export function deliveryDoc(summary: string, description: string, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    summary,
    tags: ['Entregas de webhook'],
    description,
    ...extra,
    responses: { ...responses, ...commonProblems, '404': notYours },
  };
}

/** A staff list's page (lib/webhooks/health-contract.ts's pageOf): the items by reference, and where the page is. */
export function pageDoc(item: z.ZodType) {
  const whole = { type: 'integer', minimum: 1 };
  return {
    type: 'object',
    required: ['itens', 'total', 'pagina', 'limite'],
    properties: {
      itens: { type: 'array', items: ref(item) },
      total: { type: 'integer', minimum: 0, description: 'How many there are in all pages.' },
      pagina: { ...whole, description: 'This page, from 1.' },
      limite: { ...whole, description: 'At most this many a page.' },
    },
  };
}

/** Path parameters, by the rows they name: the wrapper validates them (400 naming each) and documents them. */
export const webhookParams = z.strictObject({ id: uuidPathParam('UUID of the configuration.') });
export const deliveryParams = webhookParams.extend({
  entregaId: textPathParam('The delivery’s id (its webhook-id header).', '^msg_[0-9a-z]{29}$'),
});
export const apiClientParams = z.strictObject({ clientId: textPathParam('The API client’s client_id.') });
export const staffParams = z.strictObject({ id: uuidPathParam('The staff user’s id.') });

/** Administration (staff admins, console session only). */
export function adminDoc(summary: string, description: string, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    summary,
    tags: ['Administração'],
    description,
    security: [{ consoleSession: [] }],
    ...extra,
    responses: { ...responses, ...commonProblems },
  };
}
