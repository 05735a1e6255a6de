'use client';
import { useQuery } from '@tanstack/react-query';
import type { FreeSlot, Procedure } from '@/lib/scheduling/contract';
import type { RecentReservation } from '@/lib/scheduling/recent-reservations';
import { useLocale } from '@/lib/i18n/client';
import { apiPath, routes } from '@/lib/api/routes';
import { ApiProblem, apiJson } from './api';
import { FREE_SLOTS_LIMIT, RECENT_RESERVATIONS_LIMIT, schedulingKeys, type FreeSlotFilters } from './query-keys';

export { schedulingKeys, type FreeSlotFilters };

export function useFreeSlots(filters: FreeSlotFilters) {
  const locale = useLocale();
  return useQuery({
    queryKey: schedulingKeys.slots(filters),
    queryFn: async () => {
      const params = new URLSearchParams({ limite: String(FREE_SLOTS_LIMIT) });
      for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
      return (await apiJson<FreeSlot[]>(locale, `${apiPath(routes.listFreeSlots)}?${params}`)).body;
    },
    placeholderData: (previous) => previous,
  });
}

export function useRecentReservations() {
  const locale = useLocale();
  return useQuery({
    queryKey: schedulingKeys.recent,
    queryFn: async () =>
      (await apiJson<RecentReservation[]>(locale, `${apiPath(routes.listRecentReservations)}?limite=${RECENT_RESERVATIONS_LIMIT}`)).body,
  });
}

/** 501: the configured back-end has no exam listing, so the form asks for the code instead. */
export function isListingUnavailable(error: unknown): boolean {
  return error instanceof ApiProblem && error.status === 501;
}

/** The exams to choose nrSeqProcInterno from; they change rarely, so they are kept for minutes. */
export function useProcedures() {
  const locale = useLocale();
  return useQuery({
    queryKey: schedulingKeys.procedures,
    queryFn: async () => (await apiJson<Procedure[]>(locale, apiPath(routes.listProcedures))).body,
    staleTime: 5 * 60_000,
    retry: (count, error) => !isListingUnavailable(error) && !(error instanceof ApiProblem && error.status < 500) && count < 2,
  });
}
