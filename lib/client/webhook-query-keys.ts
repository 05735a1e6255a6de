import type { WebhookDetail } from '@/lib/webhooks/configurations/contract';
import type { DeliveryStatus } from '@/lib/webhooks/delivery/fields';
import type { HealthWindow } from '@/lib/webhooks/delivery/health-contract';

/** The webhook pages' TanStack Query keys; server pages prefetch under them too (see query-keys.ts). */
export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (search: string) => ['webhooks', 'list', search] as const,
  detail: (id: string) => ['webhooks', 'detail', id] as const,
  deliveries: (id: string, status: DeliveryStatus | '', event = '') => ['webhooks', 'deliveries', id, status, event] as const,
  delivery: (id: string, deliveryId: string) => ['webhooks', 'delivery', id, deliveryId] as const,
  health: (id: string, window: HealthWindow) => ['webhooks', 'health', id, window] as const,
  /** Every window of one configuration's health. */
  healthOf: (id: string) => ['webhooks', 'health', id] as const,
  triage: (page: number) => ['webhooks', 'triage', page] as const,
  alerts: (page: number) => ['webhooks', 'alerts', page] as const,
};

/** The editor's data: the configuration and the ETag its save sends back as If-Match. */
export type LoadedWebhook = { config: WebhookDetail; etag: string };

/** The editor's data from the API's answer: in the browser's query and in the page that renders it first alike. */
export function loadedWebhook(config: WebhookDetail, headers: Headers): LoadedWebhook {
  return { config, etag: headers.get('etag') ?? '' };
}
