import { randomBytes } from 'node:crypto';

/**
 * Ids that sort by creation time (a base-36 millisecond clock, then 80 random bits), with a prefix
 * that says what they are: `msg_` for deliveries (the `webhook-id` header, as Standard Webhooks and
 * Svix spell it), `evt_` for events, `att_` for attempts, `alr_` for alerts.
 */
export function newId(prefix: 'msg' | 'evt' | 'att' | 'alr', now = Date.now()): string {
  return `${prefix}_${now.toString(36).padStart(9, '0')}${randomBytes(10).toString('hex')}`;
}
