'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'next/navigation';
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ReadyContext } from '@/components/ui/use-ready';
import { ProblemMessage } from '@/components/console/problem-message';
import { schedulingKeys, useAgendas, useSlotGrids } from '@/lib/client/slot-queries';
import { useWaitlistLines } from '@/lib/client/waitlist-queries';
import { waitingFor } from '@/lib/scheduling/waitlist-match';
import { useLocale, useT } from '@/lib/i18n/client';
import { brasiliaDay, columnsOf, openingDay, windowOf, type CalendarView } from '@/lib/scheduling/calendar';
import type { FreeSlot } from '@/lib/scheduling/contract';
import { formatDay, periodLabel } from './calendar/day-format';
import { calendarSearch, readCalendarAddress, type CalendarAddress } from './calendar/address';
import { AXIS_PX, COLUMN_PX, MAX_DAY_COLUMNS, UNMEASURED_DAY_COLUMNS } from './calendar/geometry';
import { Legend } from './calendar/slot-state';
import { TimeGrid } from './calendar/time-grid';
import { AgendaPager, CalendarToolbar } from './calendar/toolbar';

/**
 * The free slots on a time grid (issue 21 §5): a day of every agenda side by side, or a week of one
 * agenda, day by day; each slot placed by its São Paulo time. Free slots are buttons that fill the
 * form as "Usar" does; held and taken ones say so in words, with an icon and a pattern besides
 * their colour. One free slot is in the tab order at a time; arrow keys move between them.
 * This file holds the calendar's state (period, agenda, paging) and its loading, error and empty
 * answers; the parts it lays out are in ./calendar.
 */

/**
 * How many agenda columns fit the grid's width (day view), at most MAX_DAY_COLUMNS; until the box is
 * measured, UNMEASURED_DAY_COLUMNS, so the server's HTML and the browser's first render agree.
 */
function useColumnsThatFit() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  const fit = width === 0 ? UNMEASURED_DAY_COLUMNS : Math.min(MAX_DAY_COLUMNS, Math.max(1, Math.floor((width - AXIS_PX) / COLUMN_PX)));
  return { ref, fit };
}

/**
 * The calendar's day, view and agenda, kept in the page's address (./calendar/address.ts): each
 * change is a history entry, so back and forward return to the views looked at. Next keeps
 * useSearchParams in step with history.pushState, without a server round trip.
 */
function useCalendarAddress(openingDay: string) {
  const params = useSearchParams();
  const address = readCalendarAddress((name) => params.get(name));
  /**
   * Moves to the place `update` gives from the current one, read from the address itself: Next
   * re-renders with a pushState in a transition, so two quick changes (an agenda, then the week)
   * must not build the second on the render before the first.
   */
  function go(update: (current: CalendarAddress & { day: string }) => Partial<CalendarAddress>) {
    const search = new URLSearchParams(window.location.search);
    const current = readCalendarAddress((name) => search.get(name));
    const place = { ...current, day: current.day ?? openingDay };
    window.history.pushState(null, '', calendarSearch(search, { ...place, ...update(place) }));
  }
  return { ...address, day: address.day ?? openingDay, go };
}

/**
 * The day of the soonest free slot after `day` the page knows of (the free list, soonest first),
 * of `agenda` when one is chosen: where an empty day or week offers to go (the demo's slots start
 * tomorrow, so "Hoje" is empty there).
 */
function nextFreeDay(cached: FreeSlot[] | undefined, day: string, agenda: number | undefined): string | undefined {
  for (const slot of cached ?? []) {
    if (agenda !== undefined && slot.CD_AGENDA !== agenda) continue;
    const slotDay = brasiliaDay(Date.parse(slot.DT_AGENDA));
    if (slotDay > day) return slotDay;
  }
  return undefined;
}

export function SlotCalendar({ onPick }: { onPick: (slot: FreeSlot) => void }) {
  const t = useT();
  const locale = useLocale();
  const ids = useId();
  const queryClient = useQueryClient();
  // The free list the page came with: the opening day, and where an empty period offers to go.
  const freeList = queryClient.getQueryData<FreeSlot[]>(schedulingKeys.slots({}));
  // With no day in the address, the one the page opened on (a later refetch of the list does not move it).
  const [opening] = useState(() => openingDay(freeList));
  const { view, day, agenda, go } = useCalendarAddress(opening);
  const setDay = (next: string) => go(() => ({ day: next }));
  const [offset, setOffset] = useState(0);
  const { ref: box, fit } = useColumnsThatFit();

  const { days, de, ate } = windowOf(view, day);
  // The agendas with a slot in the window (and the one chosen, even when it has none there).
  const windowAgendas = useAgendas({ de, ate });
  const codes = windowAgendas.data ?? [];
  const agendas = agenda === undefined || codes.includes(agenda) ? codes : [...codes, agenda].sort((a, b) => a - b);
  // A week shows one agenda: the one chosen, else the first of the week.
  const shown = view === 'week' ? (agenda ?? agendas[0]) : agenda;

  // The columns asked for: the day's agendas that fit, from `offset` (the others page sideways), or
  // the one agenda shown. Only their slots are fetched, not a whole day of every agenda.
  const all = shown === undefined ? codes : [shown];
  const paged = view === 'day' && all.length > fit;
  const start = paged ? Math.min(offset, all.length - fit) : 0;
  const onScreen = paged ? all.slice(start, start + fit) : all;
  const grid = useSlotGrids(onScreen.map((code) => ({ de, ate, cdAgenda: code })));
  // The grid is laid out in a deferred render, which React can interrupt, so columns of many slots
  // arriving never block the page (a new period shows "loading" meanwhile; other agendas of the
  // same period, as once the width is measured, and a refetch keep the last grid until theirs).
  const period = `${view}|${day}|${shown ?? ''}`;
  const latest = useMemo(() => ({ period, data: grid.data }), [period, grid.data]);
  const settled = useDeferredValue(latest);
  // The same period is the same view, day and agenda: the settled slots are laid out as this render's.
  const columns = settled.data && settled.period === period ? columnsOf(settled.data, view, days, shown) : undefined;
  const error = windowAgendas.error ?? grid.error;
  // The entries waiting, to mark the free slots that suit one (the waitlist's own page lists them).
  const lines = useWaitlistLines({ refresh: false });
  const waiting = useMemo(() => (lines.data ?? []).flatMap((line) => line.aguardando), [lines.data]);

  function switchView(next: CalendarView) {
    // A week shows one agenda: the one chosen, else the first on screen, else the first known.
    go((current) => ({ view: next, agenda: current.agenda ?? (next === 'week' ? (onScreen[0] ?? agendas[0]) : undefined) }));
  }

  function chooseAgenda(next: number | undefined) {
    go(() => ({ agenda: next }));
    setOffset(0);
  }

  const heading = periodLabel(view, days, locale);
  const headingId = `${ids}-period`;
  const helpId = `${ids}-help`;
  return (
    <div className="flex min-h-[34rem] min-w-0 flex-col gap-3" data-testid="slot-calendar">
      {/* Moving through the calendar needs none of the form's code: it works once the page has hydrated. */}
      <ReadyContext value>
        <CalendarToolbar view={view} onView={switchView} day={day} onDay={setDay} agendas={agendas} shown={shown} onAgenda={chooseAgenda} />
      </ReadyContext>

      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900 first-letter:uppercase" aria-live="polite">
          {heading} <span className="font-normal text-slate-600">· {t('time.brasilia')}</span>
        </h3>
        <Legend />
      </div>
      <p id={helpId} className="sr-only">
        {t('calendar.keyboard')}
      </p>

      {paged ? (
        <ReadyContext value>
          <AgendaPager start={start} fit={fit} shown={onScreen.length} total={all.length} onOffset={setOffset} />
        </ReadyContext>
      ) : null}

      <div ref={box} className="min-w-0">
        {error ? (
          <Alert
            tone="danger"
            role="alert"
            actions={
              <Button variant="secondary" size="sm" onClick={() => (windowAgendas.isError ? windowAgendas.refetch() : grid.refetch())}>
                {t('common.retry')}
              </Button>
            }
          >
            <ProblemMessage error={error} />
          </Alert>
        ) : windowAgendas.isPending || !columns ? (
          <Spinner label={t('common.loading')} />
        ) : columns.every((column) => column.slots.length === 0) ? (
          <EmptyPeriod view={view} next={nextFreeDay(freeList, days[days.length - 1]!, shown)} onDay={setDay} />
        ) : (
          <>
            {grid.truncated ? (
              <Alert tone="info" role="status" className="mb-2">
                {t('calendar.truncated')}
              </Alert>
            ) : null}
            <TimeGrid
              columns={columns}
              view={view}
              onPick={onPick}
              labelledBy={headingId}
              describedBy={helpId}
              waitingFor={(slot) => waitingFor(slot, waiting, Date.now())}
            />
          </>
        )}
      </div>
    </div>
  );
}

/** An empty day or week: says so and, when a later day has a free slot, offers to go there. */
function EmptyPeriod({ view, next, onDay }: { view: CalendarView; next: string | undefined; onDay: (day: string) => void }) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-slate-600">
      <p>{t(view === 'day' ? 'calendar.empty.day' : 'calendar.empty.week')}</p>
      {next ? (
        <Button size="sm" variant="secondary" onClick={() => onDay(next)}>
          {t('calendar.nextFree', { day: formatDay(next, 'weekdayDayMonth', locale) })}
        </Button>
      ) : null}
    </div>
  );
}
