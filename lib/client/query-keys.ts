import type { DeliveryStatus } from '@/lib/webhooks/fields';
import type { HealthWindow } from '@/lib/webhooks/health-contract';

/**
 * The console's TanStack Query keys and list sizes. Not a client module: the server pages that
 * prefetch a page's first data (lib/console/prefetch.ts) must file it under the same keys the
 * client components read.
 */
export type FreeSlotFilters = { de?: string; ate?: string; cdAgenda?: string };

/** Free slots listed per request, and recent reservations shown. */
export const FREE_SLOTS_LIMIT = 50;
export const RECENT_RESERVATIONS_LIMIT = 25;

export const schedulingKeys = {
  slots: (filters: FreeSlotFilters) => ['scheduling', 'slots', filters] as const,
  allSlots: ['scheduling', 'slots'] as const,
  recent: ['scheduling', 'recent'] as const,
  procedures: ['scheduling', 'procedures'] as const,
};

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (search: string) => ['webhooks', 'list', search] as const,
  detail: (id: string) => ['webhooks', 'detail', id] as const,
  deliveries: (id: string, status: DeliveryStatus | '', event = '') => ['webhooks', 'deliveries', id, status, event] as const,
  delivery: (id: string, deliveryId: string) => ['webhooks', 'delivery', id, deliveryId] as const,
  health: (id: string, window: HealthWindow) => ['webhooks', 'health', id, window] as const,
  triage: ['webhooks', 'triage'] as const,
  alerts: ['webhooks', 'alerts'] as const,
};
