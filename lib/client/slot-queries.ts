'use client';
import { useQuery } from '@tanstack/react-query';
import type { FreeSlot, Slot } from '@/lib/scheduling/contract';
import type { RecentReservation } from '@/lib/scheduling/recent-reservations';
import { useLocale } from '@/lib/i18n/client';
import { apiPath, listFreeSlots, listRecentReservations, listSlots } from '@/lib/api/routes';
import { apiJson } from './api';
import {
  FREE_SLOTS_LIMIT,
  RECENT_RESERVATIONS_LIMIT,
  SLOT_GRID_LIMIT,
  schedulingKeys,
  type FreeSlotFilters,
  type SlotWindow,
} from './query-keys';

/**
 * The reservation page's listings of slots and reservations, read by its parts loaded after the
 * form (the calendar, the slot table, the recent reservations), and loaded with them.
 */
export { SLOT_GRID_LIMIT, schedulingKeys, type FreeSlotFilters, type SlotWindow };

export function useFreeSlots(filters: FreeSlotFilters) {
  const locale = useLocale();
  return useQuery({
    queryKey: schedulingKeys.slots(filters),
    queryFn: async () => {
      const params = new URLSearchParams({ limite: String(FREE_SLOTS_LIMIT) });
      for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
      return (await apiJson<FreeSlot[]>(locale, `${apiPath(listFreeSlots)}?${params}`)).body;
    },
    placeholderData: (previous) => previous,
  });
}

/** Every slot of the calendar's window, with its state. */
export function useSlotGrid(window: SlotWindow) {
  const locale = useLocale();
  return useQuery({
    queryKey: schedulingKeys.grid(window),
    queryFn: async () => {
      const params = new URLSearchParams({ de: window.de, ate: window.ate, limite: String(SLOT_GRID_LIMIT) });
      if (window.cdAgenda) params.set('cdAgenda', String(window.cdAgenda));
      return (await apiJson<Slot[]>(locale, `${apiPath(listSlots)}?${params}`)).body;
    },
  });
}

export function useRecentReservations() {
  const locale = useLocale();
  return useQuery({
    queryKey: schedulingKeys.recent,
    queryFn: async () =>
      (await apiJson<RecentReservation[]>(locale, `${apiPath(listRecentReservations)}?limite=${RECENT_RESERVATIONS_LIMIT}`)).body,
  });
}
