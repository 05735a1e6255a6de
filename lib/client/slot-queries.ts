'use client';
import { useQueries, useQuery } from '@tanstack/react-query';
import type { Agenda, FreeSlot, Slot } from '@/lib/scheduling/contract';
import type { RecentReservation } from '@/lib/scheduling/recent-reservations';
import { apiPath, listAgendas, listFreeSlots, listRecentReservations, listSlots } from '@/lib/api/routes';
import { apiJson, type ApiCaller } from './api';
import {
  FREE_SLOTS_LIMIT,
  RECENT_RESERVATIONS_LIMIT,
  SLOT_GRID_LIMIT,
  schedulingKeys,
  type AgendaWindow,
  type FreeSlotFilters,
  type SlotWindow,
} from './query-keys';
import { useApiCaller } from './api-base';

/**
 * The reservation page's listings of slots and reservations, read by its parts loaded after the
 * form (the calendar, the slot table, the recent reservations), and loaded with them.
 */
export { SLOT_GRID_LIMIT, schedulingKeys, type AgendaWindow, type FreeSlotFilters, type SlotWindow };

export function useFreeSlots(filters: FreeSlotFilters) {
  const api = useApiCaller();
  return useQuery({
    queryKey: schedulingKeys.slots(filters),
    queryFn: async () => {
      const params = new URLSearchParams({ limite: String(FREE_SLOTS_LIMIT) });
      for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
      return (await apiJson<FreeSlot[]>(api, `${apiPath(listFreeSlots)}?${params}`)).body;
    },
    placeholderData: (previous) => previous,
  });
}

function slotGridQuery(api: ApiCaller, window: SlotWindow) {
  return {
    queryKey: schedulingKeys.grid(window),
    queryFn: async () => {
      const params = new URLSearchParams({ de: window.de, ate: window.ate, limite: String(SLOT_GRID_LIMIT) });
      if (window.cdAgenda) params.set('cdAgenda', String(window.cdAgenda));
      return (await apiJson<Slot[]>(api, `${apiPath(listSlots)}?${params}`)).body;
    },
  };
}

type GridResult = { data?: Slot[]; isPending: boolean; error: Error | null; refetch: () => unknown };

/** The calendar's windows as one grid (module-level, so useQueries keeps its result while none changed). */
function oneGrid(results: GridResult[]) {
  return {
    data: results.every((result) => result.data) ? results.flatMap((result) => result.data ?? []) : undefined,
    isPending: results.some((result) => result.isPending),
    error: results.find((result) => result.error)?.error ?? null,
    /** Whether a window answered as many slots as asked for: it may have more. */
    truncated: results.some((result) => (result.data?.length ?? 0) >= SLOT_GRID_LIMIT),
    refetch: () => results.forEach((result) => void result.refetch()),
  };
}

/**
 * Every slot of the calendar's windows (an agenda's day, or its week), with its state: one request
 * per window, so paging through the agendas asks only for those not seen yet. `data` is every
 * window's slots once all have answered.
 */
export function useSlotGrids(windows: readonly SlotWindow[]) {
  const api = useApiCaller();
  return useQueries({ queries: windows.map((window) => slotGridQuery(api, window)), combine: oneGrid });
}

const codesOf = (agendas: Agenda[]) => agendas.map((agenda) => agenda.CD_AGENDA);

/** The agendas with a slot in the calendar's window (its day, or its week), by code. */
export function useAgendas(window: AgendaWindow) {
  const api = useApiCaller();
  return useQuery({
    queryKey: schedulingKeys.agendas(window),
    queryFn: async () => (await apiJson<Agenda[]>(api, `${apiPath(listAgendas)}?${new URLSearchParams(window)}`)).body,
    select: codesOf,
  });
}

export function useRecentReservations() {
  const api = useApiCaller();
  return useQuery({
    queryKey: schedulingKeys.recent,
    queryFn: async () =>
      (await apiJson<RecentReservation[]>(api, `${apiPath(listRecentReservations)}?limite=${RECENT_RESERVATIONS_LIMIT}`)).body,
  });
}
