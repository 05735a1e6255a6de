import { EVENT_TYPE_OF_FLAG, type WebhookEventFlag } from './types';

/**
 * Where the API reference (/api/docs, Scalar) shows an event type's entry of the OpenAPI
 * `webhooks` section (lib/openapi/webhooks.ts): the console links each event toggle there. No zod:
 * the editor's first load imports it.
 */
export const WEBHOOKS_TAG = 'Notifications (webhooks)';

/** Scalar's slug of a tag: lower case, parentheses dropped, spaces as hyphens. */
function tagSlug(tag: string): string {
  return tag.toLowerCase().replace(/[()]/g, '').trim().replace(/\s+/g, '-');
}

export function catalogueLink(flag: WebhookEventFlag): string {
  return `/api/docs#tag/${encodeURIComponent(tagSlug(WEBHOOKS_TAG))}/webhook/POST/${EVENT_TYPE_OF_FLAG[flag]}`;
}
