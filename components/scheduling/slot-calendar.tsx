'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ProblemMessage } from '@/components/console/problem-message';
import { SLOT_GRID_LIMIT, schedulingKeys, useSlotGrid } from '@/lib/client/slot-queries';
import { useLocale, useT } from '@/lib/i18n/client';
import type { Locale } from '@/lib/i18n';
import {
  brasiliaDay,
  brasiliaMinute,
  clock,
  columnsOf,
  hourRange,
  moveFocus,
  NAVIGATION_KEYS,
  stepDay,
  windowOf,
  type CalendarColumn,
  CALENDAR_VIEWS,
  type CalendarView,
  type NavigationKey,
  type PlacedSlot,
} from '@/lib/scheduling/calendar';
import type { FreeSlot, Slot } from '@/lib/scheduling/contract';

/**
 * The free slots on a time grid (issue 21 §5): a day of every agenda side by side, or a week of one
 * agenda, day by day; each slot placed by its São Paulo time. Free slots are buttons that fill the
 * form as "Usar" does; held and taken ones say so in words, with an icon and a pattern besides
 * their colour. One free slot is in the tab order at a time; arrow keys move between them.
 */

/**
 * Grid geometry: pixels per minute (a 30-minute slot is 36 px tall), the time axis, and a column's
 * least width: an agenda's in the day view (more agendas page sideways), a day's in the week view,
 * narrow enough for seven on a phone (a narrow slot shows its time, or its state's icon, alone).
 */
const PX_PER_MINUTE = 1.2;
const AXIS_PX = 44;
const COLUMN_PX = 104;
const WEEK_COLUMN_PX = 34;

/**
 * Day labels: the day is a São Paulo date already, so it is formatted as UTC midnight. Formatters
 * are made once per locale and style: making one costs far more than formatting with it.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
function dayFormat(locale: Locale, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let made = dayFormats.get(key);
  if (!made) {
    made = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    dayFormats.set(key, made);
  }
  return made;
}
const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

function periodLabel(view: CalendarView, days: readonly string[], locale: Locale): string {
  if (view === 'day') return dayFormat(locale, { dateStyle: 'full' }).format(asDate(days[0]!));
  return dayFormat(locale, { dateStyle: 'medium' }).formatRange(asDate(days[0]!), asDate(days[days.length - 1]!));
}

/** How many agenda columns fit the grid's width (day view); wider grids scroll sideways in their box. */
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
  const fit = width === 0 ? 6 : Math.max(1, Math.floor((width - AXIS_PX) / COLUMN_PX));
  return { ref, fit: Math.min(fit, 8) };
}

/** The day the calendar opens on: that of the soonest free slot the page already has, or today. */
function firstDay(cached: FreeSlot[] | undefined): string {
  const soonest = cached?.[0];
  return soonest ? brasiliaDay(Date.parse(soonest.DT_AGENDA)) : brasiliaDay(Date.now());
}

export function SlotCalendar({ onPick }: { onPick: (slot: FreeSlot) => void }) {
  const t = useT();
  const locale = useLocale();
  const ids = useId();
  const queryClient = useQueryClient();
  const [view, setView] = useState<CalendarView>('day');
  const [day, setDay] = useState(() => firstDay(queryClient.getQueryData<FreeSlot[]>(schedulingKeys.slots({}))));
  const [agenda, setAgenda] = useState<number>();
  const [offset, setOffset] = useState(0);
  const { ref: box, fit } = useColumnsThatFit();

  // The agendas to choose from: every one this page has seen (the free list, any grid asked for).
  const seen = new Set<number>(agenda ? [agenda] : []);
  for (const slot of queryClient.getQueryData<FreeSlot[]>(schedulingKeys.slots({})) ?? []) seen.add(slot.CD_AGENDA);
  for (const [, slots] of queryClient.getQueriesData<Slot[]>({ queryKey: schedulingKeys.allGrids }))
    for (const slot of slots ?? []) seen.add(slot.CD_AGENDA);
  const agendas = [...seen].sort((a, b) => a - b);
  // A week shows one agenda: the one chosen, else the first known.
  const shown = view === 'week' ? (agenda ?? agendas[0]) : agenda;

  const { days, de, ate } = windowOf(view, day);
  const grid = useSlotGrid({ de, ate, ...(shown ? { cdAgenda: shown } : {}) });
  // The grid is laid out in a deferred render, which React can interrupt, so a day of many agendas
  // arriving never blocks the page (a new window shows "loading" meanwhile; a refetch, the last grid).
  const key = `${view}|${day}|${shown ?? ''}`;
  const latest = useMemo(() => ({ key, data: grid.data }), [key, grid.data]);
  const settled = useDeferredValue(latest);
  const columns = settled.data && settled.key === key ? columnsOf(settled.data, view, days, shown) : undefined;

  // Day view: the agenda columns that fit, from `offset`; the week view's seven days always.
  const all = columns ?? [];
  const paged = view === 'day' && all.length > fit;
  const start = paged ? Math.min(offset, all.length - fit) : 0;
  const visible = paged ? all.slice(start, start + fit) : all;

  function switchView(next: CalendarView) {
    // A week shows one agenda: the one chosen, else the first on screen, else the first known.
    if (next === 'week' && agenda === undefined) setAgenda(visible[0]?.agenda ?? agendas[0]);
    setView(next);
  }

  const period = periodLabel(view, days, locale);
  const headingId = `${ids}-period`;
  const helpId = `${ids}-help`;
  return (
    <div className="flex min-h-[34rem] min-w-0 flex-col gap-3" data-testid="slot-calendar">
      <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
        <ToggleGroup
          label={t('calendar.period')}
          options={CALENDAR_VIEWS}
          value={view}
          onChange={switchView}
          optionLabel={(option) => t(`calendar.${option}`)}
        />
        <div className="flex gap-1">
          <Button size="sm" variant="secondary" onClick={() => setDay(stepDay(view, day, -1))} aria-label={t(`calendar.previous.${view}`)}>
            <span aria-hidden>‹</span>
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setDay(brasiliaDay(Date.now()))}>
            {t('calendar.today')}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setDay(stepDay(view, day, 1))} aria-label={t(`calendar.next.${view}`)}>
            <span aria-hidden>›</span>
          </Button>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <span className="whitespace-nowrap">{t('calendar.agenda')}</span>
          <select
            className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600"
            value={shown ?? ''}
            onChange={(event) => {
              setAgenda(event.target.value ? Number(event.target.value) : undefined);
              setOffset(0);
            }}
          >
            {view === 'day' ? <option value="">{t('calendar.allAgendas')}</option> : null}
            {agendas.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </label>
      </div>

      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900 first-letter:uppercase" aria-live="polite">
          {period} <span className="font-normal text-slate-600">· {t('time.brasilia')}</span>
        </h3>
        <Legend />
      </div>
      <p id={helpId} className="sr-only">
        {t('calendar.keyboard')}
      </p>

      {paged ? (
        <div className="flex items-center gap-2 text-sm text-slate-700">
          <Button
            size="sm"
            variant="secondary"
            disabled={start === 0}
            onClick={() => setOffset(Math.max(0, start - fit))}
            aria-label={t('calendar.previousAgendas')}
          >
            <span aria-hidden>‹</span>
          </Button>
          <span aria-live="polite">{t('calendar.agendaPage', { first: start + 1, last: start + visible.length, total: all.length })}</span>
          <Button
            size="sm"
            variant="secondary"
            disabled={start + fit >= all.length}
            onClick={() => setOffset(start + fit)}
            aria-label={t('calendar.nextAgendas')}
          >
            <span aria-hidden>›</span>
          </Button>
        </div>
      ) : null}

      <div ref={box} className="min-w-0">
        {grid.isPending || (!grid.isError && !columns) ? (
          <Spinner label={t('common.loading')} />
        ) : grid.isError ? (
          <Alert
            tone="danger"
            role="alert"
            actions={
              <Button variant="secondary" size="sm" onClick={() => grid.refetch()}>
                {t('common.retry')}
              </Button>
            }
          >
            <ProblemMessage error={grid.error} />
          </Alert>
        ) : !columns || columns.every((column) => column.slots.length === 0) ? (
          <p className="text-sm text-slate-600">{t(view === 'day' ? 'calendar.empty.day' : 'calendar.empty.week')}</p>
        ) : (
          <>
            {(settled.data?.length ?? 0) >= SLOT_GRID_LIMIT ? (
              <Alert tone="info" role="status" className="mb-2">
                {t('calendar.truncated')}
              </Alert>
            ) : null}
            <TimeGrid columns={visible} view={view} onPick={onPick} labelledBy={headingId} describedBy={helpId} />
          </>
        )}
      </div>
    </div>
  );
}

function Legend() {
  const t = useT();
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-700" aria-label={t('calendar.legend')}>
      {(['livre', 'reservado', 'ocupado'] as const).map((state) => (
        <li key={state} className="flex items-center gap-1.5">
          <span aria-hidden className={`inline-flex h-4 w-5 items-center justify-center rounded ${STATE_CLASSES[state]}`}>
            <StateIcon state={state} />
          </span>
          {t(`calendar.legend.${state}`)}
        </li>
      ))}
    </ul>
  );
}

/** Free: a solid outline; held: a dashed amber border and a clock; taken: a hatched grey and a cross. */
const STATE_CLASSES = {
  livre: 'border border-indigo-400 bg-white text-indigo-900',
  reservado: 'border border-dashed border-amber-600 bg-amber-50 text-amber-950',
  ocupado:
    'border border-slate-300 bg-[repeating-linear-gradient(135deg,var(--color-slate-100)_0_5px,var(--color-slate-200)_5px_7px)] text-slate-700',
} as const;

function StateIcon({ state }: { state: Slot['situacao'] }) {
  if (state === 'livre') return null;
  return (
    <svg aria-hidden viewBox="0 0 12 12" className="h-3 w-3 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.5">
      {state === 'reservado' ? (
        <>
          <circle cx="6" cy="6" r="4.75" />
          <path d="M6 3.5V6l1.75 1.25" strokeLinecap="round" />
        </>
      ) : (
        <path d="M3 3l6 6M9 3l-6 6" strokeLinecap="round" />
      )}
    </svg>
  );
}

function TimeGrid({
  columns,
  view,
  onPick,
  labelledBy,
  describedBy,
}: {
  columns: CalendarColumn[];
  view: CalendarView;
  onPick: (slot: FreeSlot) => void;
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
  const weekday = dayFormat(locale, { weekday: 'short' });
  // English short dates (11/26/26) read as several days: English gets the month's name (as brasiliaDateTime does).
  const dayMonth = dayFormat(locale, locale === 'en' ? { month: 'short', day: 'numeric' } : { day: '2-digit', month: '2-digit' });
  const columnPx = view === 'day' ? COLUMN_PX : WEEK_COLUMN_PX;
  const dateOnly = dayFormat(locale, { dateStyle: locale === 'en' ? 'medium' : 'short' });

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
  return (
    <div
      ref={gridRef}
      role="group"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onKeyDown={onKeyDown}
      // With no free slot there is nothing to tab to: the box itself takes focus so it can be scrolled.
      tabIndex={free.length === 0 ? 0 : undefined}
      className="max-h-[26rem] overflow-auto rounded-md border border-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <div
        className="grid"
        style={{
          gridTemplateColumns: `${AXIS_PX}px repeat(${columns.length}, minmax(${columnPx}px, 1fr))`,
          minWidth: AXIS_PX + columns.length * columnPx,
        }}
      >
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
                <span className="block">{weekday.format(asDate(column.day))}</span>
                <span className="block font-normal">{dayMonth.format(asDate(column.day))}</span>
              </>
            )}
          </div>
        ))}
        <div aria-hidden className="sticky left-0 z-10 border-r border-slate-200 bg-white" style={{ height }}>
          {hours.map((hour) => (
            <span
              key={hour}
              className="absolute right-1.5 text-[0.6875rem] text-slate-600 tabular-nums"
              style={{ top: (hour - from) * PX_PER_MINUTE + 2 }}
            >
              {clock(hour)}
            </span>
          ))}
        </div>
        {columns.map((column) => (
          <ul
            key={column.key}
            aria-label={
              view === 'day'
                ? t('calendar.agendaColumn', { agenda: column.agenda ?? '' })
                : dayFormat(locale, { dateStyle: 'full' }).format(asDate(column.day))
            }
            className="@container relative border-l border-slate-200 bg-[linear-gradient(to_bottom,var(--color-slate-200)_1px,transparent_1px)]"
            style={{ height, backgroundSize: `100% ${60 * PX_PER_MINUTE}px` }}
          >
            {column.slots.map((slot) => (
              <SlotItem
                key={slot.NR_SEQ_AGENDA}
                slot={slot}
                date={dateOnly.format(asDate(slot.day))}
                top={(slot.start - from) * PX_PER_MINUTE}
                active={slot.NR_SEQ_AGENDA === active}
                onPick={pick}
              />
            ))}
          </ul>
        ))}
      </div>
    </div>
  );
}

function SlotItem({
  slot,
  date,
  top,
  active,
  onPick,
}: {
  slot: PlacedSlot;
  date: string;
  top: number;
  active: boolean;
  onPick: (slot: PlacedSlot) => void;
}) {
  const t = useT();
  const time = clock(slot.start);
  const facts = { time, date, agenda: slot.CD_AGENDA, minutes: slot.NR_MIN_DURACAO, slot: slot.NR_SEQ_AGENDA };
  // Below 4.5rem (seven days on a phone) a slot shows its time, or its state's icon, alone.
  const box = `absolute inset-x-px flex flex-col items-center overflow-hidden rounded py-0.5 text-center text-[0.6875rem] leading-[0.875rem] @[4.5rem]:inset-x-1 @[4.5rem]:items-start @[4.5rem]:px-1.5 @[4.5rem]:text-left ${STATE_CLASSES[slot.situacao]}`;
  const position = { top: top + 1, height: Math.max(slot.NR_MIN_DURACAO * PX_PER_MINUTE - 2, 14) };
  if (slot.situacao === 'livre') {
    return (
      <li>
        <button
          type="button"
          data-slot={slot.NR_SEQ_AGENDA}
          tabIndex={active ? 0 : -1}
          aria-label={t('calendar.freeLabel', facts)}
          onClick={() => onPick(slot)}
          className={`${box} hover:bg-indigo-50 focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-700`}
          style={position}
        >
          <span className="font-semibold tabular-nums">{time}</span>
          <span className="hidden @[4.5rem]:block">{t('slots.minutes', { minutes: slot.NR_MIN_DURACAO })}</span>
        </button>
      </li>
    );
  }
  const until = slot.situacao === 'reservado' && slot.expiraEm ? clock(brasiliaMinute(Date.parse(slot.expiraEm))) : undefined;
  return (
    <li data-slot={slot.NR_SEQ_AGENDA} data-state={slot.situacao} className={box} style={position}>
      <span aria-hidden className="flex items-center gap-1 font-semibold tabular-nums">
        <StateIcon state={slot.situacao} />
        <span className="hidden @[4.5rem]:inline">{time}</span>
      </span>
      <span aria-hidden className="hidden @[4.5rem]:block">
        {t(`calendar.state.${slot.situacao}`)}
      </span>
      <span className="sr-only">
        {time} {t(`calendar.state.${slot.situacao}`)}
        {until ? ` ${t('calendar.heldUntil', { time: until })}` : ''}, {t('calendar.details', facts)}
      </span>
    </li>
  );
}
