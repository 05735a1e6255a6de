/**
 * The reservation page's TanStack Query keys and list sizes (the webhook pages' are in
 * webhook-query-keys.ts, so neither page's bundle carries the other's). Not a client module: the
 * server pages that prefetch a page's first data (lib/console/prefetch.ts) must file it under the
 * same keys the client components read.
 */
export type FreeSlotFilters = { de?: string; ate?: string; cdAgenda?: string };
/** The calendar's window (`GET /api/v1/agendamentos/slots`): ISO instants, and an agenda or every one. */
export type SlotWindow = { de: string; ate: string; cdAgenda?: number };
/** The window whose agendas the calendar pages through (`GET /api/v1/agendamentos/agendas`). */
export type AgendaWindow = { de: string; ate: string };

/** Free slots listed per request, and recent reservations shown. */
export const FREE_SLOTS_LIMIT = 50;
export const RECENT_RESERVATIONS_LIMIT = 25;
/** Slots the calendar asks for per window: a day or a week of one agenda. */
export const SLOT_GRID_LIMIT = 2000;

export const schedulingKeys = {
  slots: (filters: FreeSlotFilters) => ['scheduling', 'slots', filters] as const,
  allSlots: ['scheduling', 'slots'] as const,
  grid: (window: SlotWindow) => ['scheduling', 'grid', window] as const,
  allGrids: ['scheduling', 'grid'] as const,
  agendas: (window: AgendaWindow) => ['scheduling', 'agendas', window] as const,
  recent: ['scheduling', 'recent'] as const,
  procedures: ['scheduling', 'procedures'] as const,
  waitlist: ['scheduling', 'waitlist'] as const,
};
