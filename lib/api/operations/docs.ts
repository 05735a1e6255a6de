import { z } from 'zod';
import { textPathParam, uuidPathParam } from '@/lib/validation/path-params';
import { answer } from '@/lib/http/answers';

/** Answers, documentation and path parameters that several operations share. */
export const notYours = answer.problem('No configuration of yours has this id.');
export const deliveryNotYours = answer.problem('No configuration (or delivery) of yours has this id.');

/** Operations on one configuration's deliveries: the owner and staff with the webhooks role only. */
export function deliveryDoc(summary: string, description: string, extra: Record<string, unknown> = {}) {
  return { summary, tags: ['Webhook deliveries'], description, ...extra };
}

/** Path parameters, by the rows they name: the wrapper validates them (400 naming each) and documents them. */
export const webhookParams = z.strictObject({ id: uuidPathParam('UUID of the configuration.') });
export const deliveryParams = webhookParams.extend({
  entregaId: textPathParam('The delivery’s id (its webhook-id header).', '^msg_[0-9a-z]{29}$'),
});
export const apiClientParams = z.strictObject({ clientId: textPathParam('The API client’s client_id.') });
export const staffParams = z.strictObject({ id: uuidPathParam('The staff user’s id.') });

/** Administration (staff admins, console session only). */
export function adminDoc(summary: string, description: string) {
  return { summary, tags: ['Administration'], description, security: [{ consoleSession: [] }] };
}
