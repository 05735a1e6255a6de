'use client';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocale, useT } from '@/lib/i18n/client';
import {
  clock,
  hourRange,
  moveFocus,
  NAVIGATION_KEYS,
  type CalendarColumn,
  type CalendarView,
  type NavigationKey,
  type PlacedSlot,
} from '@/lib/scheduling/calendar';
import type { FreeSlot } from '@/lib/scheduling/contract';
import { formatDay } from './day-format';
import { AXIS_PX, COLUMN_PX, PX_PER_MINUTE, WEEK_COLUMN_PX } from './geometry';
import { slotBox, SlotItem } from './slot-item';
import { useStyleNonce } from './style-nonce';

/**
 * The columns (agendas of a day, or days of a week) side by side under a time axis, each slot
 * placed by its São Paulo time. One free slot is in the tab order at a time; arrow keys move
 * between them.
 */
export function TimeGrid({
  columns,
  view,
  onPick,
  labelledBy,
  describedBy,
  waitingFor,
}: {
  columns: CalendarColumn[];
  view: CalendarView;
  onPick: (slot: FreeSlot) => void;
  /** How many waitlist entries a free slot suits (the waitlist's mark); none when not given. */
  waitingFor?: (slot: FreeSlot) => number;
  labelledBy: string;
  describedBy: string;
}) {
  const t = useT();
  const locale = useLocale();
  const gridRef = useRef<HTMLDivElement>(null);
  const { from, to } = hourRange(columns);
  const free = columns.flatMap((column) => column.slots.filter((slot) => slot.situacao === 'livre'));
  const [chosen, setChosen] = useState<number>();
  // The one free slot in the tab order: the last one moved to or picked while it stays free, else the first.
  const active = free.some((slot) => slot.NR_SEQ_AGENDA === chosen) ? chosen : free[0]?.NR_SEQ_AGENDA;
  const columnPx = view === 'day' ? COLUMN_PX : WEEK_COLUMN_PX;

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const target = event.target as HTMLElement;
    const current = Number(target.dataset.slot);
    if (!NAVIGATION_KEYS.includes(event.key) || !current || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const next = moveFocus(columns, current, event.key as NavigationKey);
    setChosen(next);
    gridRef.current?.querySelector<HTMLElement>(`button[data-slot="${next}"]`)?.focus();
  }

  function pick(slot: PlacedSlot) {
    setChosen(slot.NR_SEQ_AGENDA);
    onPick({
      NR_SEQ_AGENDA: slot.NR_SEQ_AGENDA,
      CD_AGENDA: slot.CD_AGENDA,
      DT_AGENDA: slot.DT_AGENDA,
      NR_MIN_DURACAO: slot.NR_MIN_DURACAO,
    });
  }

  const height = (to - from) * PX_PER_MINUTE;
  const hours = Array.from({ length: (to - from) / 60 }, (_, index) => from + index * 60);
  // The geometry as this grid's own stylesheet, with the page's CSP nonce: the policy blocks `style`
  // attributes in the server's HTML, where this grid is first rendered (style-nonce.tsx).
  const scope = useId();
  const nonce = useStyleNonce();
  const within = `[data-grid="${scope}"]`;
  const css = [
    `${within} [data-part="columns"]{grid-template-columns:${AXIS_PX}px repeat(${columns.length},minmax(${columnPx}px,1fr));min-width:${AXIS_PX + columns.length * columnPx}px}`,
    `${within} [data-part="axis"],${within} [data-part="column"]{height:${height}px}`,
    `${within} [data-part="column"]{background-size:100% ${60 * PX_PER_MINUTE}px}`,
    ...hours.map((hour) => `${within} [data-hour="${hour}"]{top:${(hour - from) * PX_PER_MINUTE + 2}px}`),
    ...columns.flatMap((column) =>
      column.slots.map((slot) => {
        const box = slotBox(slot, from);
        return `${within} [data-box="${slot.NR_SEQ_AGENDA}"]{top:${box.top}px;height:${box.height}px}`;
      }),
    ),
  ].join('\n');
  return (
    <div
      ref={gridRef}
      data-grid={scope}
      role="group"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
      // With no free slot there is nothing to tab to: the box itself takes focus so it can be scrolled.
      tabIndex={free.length === 0 ? 0 : undefined}
      className="max-h-[26rem] overflow-auto rounded-md border border-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <style nonce={nonce}>{css}</style>
      <div className="grid" data-part="columns">
        <div className="sticky top-0 left-0 z-20 border-b border-slate-200 bg-white" />
        {columns.map((column) => (
          <div
            key={column.key}
            aria-hidden
            className="sticky top-0 z-10 border-b border-l border-slate-200 bg-white px-0.5 py-1.5 text-center text-xs font-semibold text-slate-800"
          >
            {view === 'day' ? (
              t('calendar.agendaColumn', { agenda: column.agenda ?? '' })
            ) : (
              <>
                <span className="block">{formatDay(column.day, 'weekday', locale)}</span>
                <span className="block font-normal">{formatDay(column.day, 'dayMonth', locale)}</span>
              </>
            )}
          </div>
        ))}
        <div aria-hidden className="sticky left-0 z-10 border-r border-slate-200 bg-white" data-part="axis">
          {hours.map((hour) => (
            <span key={hour} className="absolute right-1.5 text-[0.6875rem] text-slate-600 tabular-nums" data-hour={hour}>
              {clock(hour)}
            </span>
          ))}
        </div>
        {columns.map((column) => (
          <ul
            key={column.key}
            aria-label={
              view === 'day' ? t('calendar.agendaColumn', { agenda: column.agenda ?? '' }) : formatDay(column.day, 'full', locale)
            }
            className="@container relative border-l border-slate-200 bg-[linear-gradient(to_bottom,var(--color-slate-200)_1px,transparent_1px)]"
            data-part="column"
          >
            {column.slots.map((slot) => (
              <SlotItem
                key={slot.NR_SEQ_AGENDA}
                slot={slot}
                date={formatDay(slot.day, 'date', locale)}
                height={slotBox(slot, from).height}
                active={slot.NR_SEQ_AGENDA === active}
                onPick={pick}
                waiting={slot.situacao === 'livre' ? (waitingFor?.(slot) ?? 0) : 0}
              />
            ))}
          </ul>
        ))}
      </div>
    </div>
  );
}
