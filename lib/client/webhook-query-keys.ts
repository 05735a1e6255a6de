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
