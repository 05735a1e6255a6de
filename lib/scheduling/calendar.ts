import { BRASILIA_OFFSET } from '@/lib/i18n/brasilia-time';
import type { FreeSlot, Slot } from './contract';

/**
 * The console calendar's arithmetic, pure and tested apart from the grid that draws it. Days are
 * São Paulo days written `YYYY-MM-DD`; Brazil keeps UTC−03:00 all year (lib/i18n/brasilia-time.ts),
 * so a slot's day and minute of the day follow from its instant with a fixed offset.
 */
export const CALENDAR_VIEWS = ['day', 'week'] as const;
export type CalendarView = (typeof CALENDAR_VIEWS)[number];

const OFFSET_MS = 3 * 3_600_000;
const DAY_MS = 86_400_000;

/** The São Paulo day of an instant. */
export function brasiliaDay(instant: number): string {
  return new Date(instant - OFFSET_MS).toISOString().slice(0, 10);
}

/**
 * The day the calendar opens on: that of the soonest free slot (the free list, soonest first), or
 * today. The page's server computes it too, to send that day's agendas with the page.
 */
export function openingDay(freeSlots: readonly FreeSlot[] | undefined, now = Date.now()): string {
  const soonest = freeSlots?.[0];
  return brasiliaDay(soonest ? Date.parse(soonest.DT_AGENDA) : now);
}

/** `day` moved by `days` (negative: back). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday of the week `day` is in. */
export function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(day, -((weekday + 6) % 7));
}

/** The days a view of `day` shows, and the window to ask the API for (`ate` inclusive, as the API takes it). */
export function windowOf(view: CalendarView, day: string): { days: string[]; de: string; ate: string } {
  const days = view === 'day' ? [day] : Array.from({ length: 7 }, (_, index) => addDays(weekStart(day), index));
  return { days, de: `${days[0]}T00:00:00${BRASILIA_OFFSET}`, ate: `${days[days.length - 1]}T23:59:59.999${BRASILIA_OFFSET}` };
}

/** Where the view goes with "previous" (-1) or "next" (+1): a day, or a week. */
export function stepDay(view: CalendarView, day: string, direction: -1 | 1): string {
  return addDays(day, direction * (view === 'day' ? 1 : 7));
}

/** A slot placed on the grid: its São Paulo day and its span in minutes from that day's midnight. */
export type PlacedSlot = Slot & { day: string; start: number; end: number };

export type CalendarColumn = {
  /** The agenda (day view) or the day (week view) the column is. */
  key: string;
  agenda?: number;
  day: string;
  slots: PlacedSlot[];
};

/** The São Paulo minute of the day of an instant. */
export function brasiliaMinute(instant: number): number {
  return Math.round((instant - Date.parse(`${brasiliaDay(instant)}T00:00:00${BRASILIA_OFFSET}`)) / 60_000);
}

export function placed(slot: Slot): PlacedSlot {
  const instant = Date.parse(slot.DT_AGENDA);
  const start = brasiliaMinute(instant);
  return { ...slot, day: brasiliaDay(instant), start, end: start + slot.NR_MIN_DURACAO };
}

/**
 * The grid's columns: one per agenda that has slots on the day (day view), or one per day of the
 * week for the chosen agenda (week view, which shows one agenda). Slots soonest first in each.
 */
export function columnsOf(slots: readonly Slot[], view: CalendarView, days: readonly string[], agenda?: number): CalendarColumn[] {
  const shown = slots.map(placed).filter((slot) => days.includes(slot.day) && (agenda === undefined || slot.CD_AGENDA === agenda));
  const byStart = (a: PlacedSlot, b: PlacedSlot) => a.start - b.start || a.NR_SEQ_AGENDA - b.NR_SEQ_AGENDA;
  if (view === 'week') {
    return days.map((day) => ({ key: day, agenda, day, slots: shown.filter((slot) => slot.day === day).sort(byStart) }));
  }
  const agendas = [...new Set(shown.map((slot) => slot.CD_AGENDA))].sort((a, b) => a - b);
  return agendas.map((code) => ({
    key: String(code),
    agenda: code,
    day: days[0] ?? '',
    slots: shown.filter((slot) => slot.CD_AGENDA === code).sort(byStart),
  }));
}

/** The hours the grid spans: from the hour of the earliest slot to the hour after the latest ends (07:00–19:00 when empty). */
export function hourRange(columns: readonly CalendarColumn[]): { from: number; to: number } {
  const slots = columns.flatMap((column) => column.slots);
  if (slots.length === 0) return { from: 7 * 60, to: 19 * 60 };
  const from = Math.floor(Math.min(...slots.map((slot) => slot.start)) / 60) * 60;
  const to = Math.ceil(Math.max(...slots.map((slot) => slot.end)) / 60) * 60;
  return { from, to: Math.max(to, from + 60) };
}

/** `HH:MM` of a minute of the day. */
export function clock(minute: number): string {
  const wrapped = ((minute % 1440) + 1440) % 1440;
  return `${String(Math.floor(wrapped / 60)).padStart(2, '0')}:${String(wrapped % 60).padStart(2, '0')}`;
}

export type NavigationKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End';
export const NAVIGATION_KEYS: readonly string[] = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End'];

/**
 * Keyboard movement between the free slots of the grid (the only ones that can be picked): up and
 * down within a column, left and right to the nearest column that has a free slot, at the closest
 * time; Home and End to the column's first and last. Answers the NR_SEQ_AGENDA to focus, or the
 * current one when there is nowhere to go.
 */
export function moveFocus(columns: readonly CalendarColumn[], current: number, key: NavigationKey): number {
  const free = columns.map((column) => column.slots.filter((slot) => slot.situacao === 'livre'));
  const col = free.findIndex((slots) => slots.some((slot) => slot.NR_SEQ_AGENDA === current));
  if (col < 0) return free.flat()[0]?.NR_SEQ_AGENDA ?? current;
  const slots = free[col]!;
  const row = slots.findIndex((slot) => slot.NR_SEQ_AGENDA === current);
  switch (key) {
    case 'ArrowUp':
      return slots[Math.max(0, row - 1)]!.NR_SEQ_AGENDA;
    case 'ArrowDown':
      return slots[Math.min(slots.length - 1, row + 1)]!.NR_SEQ_AGENDA;
    case 'Home':
      return slots[0]!.NR_SEQ_AGENDA;
    case 'End':
      return slots[slots.length - 1]!.NR_SEQ_AGENDA;
    default: {
      const step = key === 'ArrowRight' ? 1 : -1;
      const start = slots[row]!.start;
      for (let next = col + step; next >= 0 && next < free.length; next += step) {
        const candidates = free[next]!;
        if (candidates.length === 0) continue;
        const nearest = candidates.reduce((best, slot) => (Math.abs(slot.start - start) < Math.abs(best.start - start) ? slot : best));
        return nearest.NR_SEQ_AGENDA;
      }
      return current;
    }
  }
}
