import { CALENDAR_VIEWS, type CalendarView } from '@/lib/scheduling/calendar';

/**
 * The calendar's place in the page's address, `/scheduling?dia=2026-11-26&vista=semana&agenda=938`:
 * the server renders that view with the page, a link or a reload opens it again, and back and
 * forward move between the views looked at. Read by the page on the server and by the calendar in
 * the browser, from this one definition. Written without zod, which stays out of the page's first
 * load (lib/client/load-schema.ts): three words are checked here by hand.
 *
 * A value that is not one of these (a mistyped day, an unknown view) is read as absent, so the
 * calendar opens as it does with no address: never an error page for a hand-edited link.
 */
export const CALENDAR_PARAMS = { day: 'dia', view: 'vista', agenda: 'agenda' } as const;

/** The view's word in the address (pt-BR, as the page's other addresses). */
const VIEW_WORDS: Record<CalendarView, string> = { day: 'dia', week: 'semana' };

export type CalendarAddress = {
  /** The São Paulo day shown (`YYYY-MM-DD`); absent: the day of the soonest free slot. */
  day?: string;
  view: CalendarView;
  /** The agenda chosen; absent: every agenda (day view), or the first of the week (week view). */
  agenda?: number;
};

/** A real calendar day written `YYYY-MM-DD` (not 2026-02-30), in the years the API's windows can be written in. */
function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || text < '1900-01-01' || text > '9999-12-24') return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The calendar's place from the address's query (`get` answers a parameter's first value, or null). */
export function readCalendarAddress(get: (name: string) => string | null | undefined): CalendarAddress {
  const day = get(CALENDAR_PARAMS.day) ?? '';
  const viewWord = get(CALENDAR_PARAMS.view);
  const agendaText = get(CALENDAR_PARAMS.agenda) ?? '';
  const agenda = /^[1-9]\d{0,8}$/.test(agendaText) ? Number(agendaText) : undefined;
  return {
    day: isCalendarDay(day) ? day : undefined,
    view: CALENDAR_VIEWS.find((view) => VIEW_WORDS[view] === viewWord) ?? 'day',
    agenda,
  };
}

/** The query string with the calendar at `address`, keeping the address's other parameters. */
export function calendarSearch(current: URLSearchParams, address: CalendarAddress): string {
  const next = new URLSearchParams(current);
  const values = { day: address.day, view: VIEW_WORDS[address.view], agenda: address.agenda?.toString() };
  for (const key of ['day', 'view', 'agenda'] as const) {
    const value = values[key];
    if (value === undefined) next.delete(CALENDAR_PARAMS[key]);
    else next.set(CALENDAR_PARAMS[key], value);
  }
  return `?${next}`;
}
