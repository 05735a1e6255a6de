'use client';
import { useQuery } from '@tanstack/react-query';
import type { FreeSlot } from '@/lib/scheduling/contract';
import type { RecentReservation } from '@/lib/scheduling/recent-reservations';
import { useLocale } from '@/lib/i18n/client';
import { apiJson } from './api';

export const RESERVE_PATH = '/api/v1/agendamentos/slots-livres/reservar';
export const FREE_SLOTS_PATH = '/api/v1/agendamentos/slots-livres';
export const RECENT_PATH = '/api/v1/agendamentos/reservas-recentes';

export const schedulingKeys = {
  slots: (filters: FreeSlotFilters) => ['scheduling', 'slots', filters] as const,
  allSlots: ['scheduling', 'slots'] as const,
  recent: ['scheduling', 'recent'] as const,
};

export type FreeSlotFilters = { de?: string; ate?: string; cdAgenda?: string };

export function useFreeSlots(filters: FreeSlotFilters) {
  const locale = useLocale();
  return useQuery({
    queryKey: schedulingKeys.slots(filters),
    queryFn: async () => {
      const params = new URLSearchParams({ limite: '50' });
      for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
      return (await apiJson<FreeSlot[]>(locale, `${FREE_SLOTS_PATH}?${params}`)).body;
    },
    placeholderData: (previous) => previous,
  });
}

export function useRecentReservations() {
  const locale = useLocale();
  return useQuery({
    queryKey: schedulingKeys.recent,
    queryFn: async () => (await apiJson<RecentReservation[]>(locale, `${RECENT_PATH}?limite=25`)).body,
  });
}
