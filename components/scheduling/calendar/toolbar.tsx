'use client';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { Button } from '@/components/ui/button';
import { useHydrated } from '@/components/ui/use-hydrated';
import { useT } from '@/lib/i18n/client';
import { brasiliaDay, stepDay, CALENDAR_VIEWS, type CalendarView } from '@/lib/scheduling/calendar';

/** The calendar's controls: day or week, the previous, current and next period, and the agenda shown. */
export function CalendarToolbar({
  view,
  onView,
  day,
  onDay,
  agendas,
  shown,
  onAgenda,
}: {
  view: CalendarView;
  onView: (view: CalendarView) => void;
  day: string;
  onDay: (day: string) => void;
  agendas: readonly number[];
  shown: number | undefined;
  onAgenda: (agenda: number | undefined) => void;
}) {
  const t = useT();
  // The calendar's first view comes with the page (server-rendered): a pick before hydration would
  // change the list and nothing else, so the list waits for the page, as <Button> does.
  const hydrated = useHydrated();
  return (
    <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
      <ToggleGroup
        label={t('calendar.period')}
        options={CALENDAR_VIEWS}
        value={view}
        onChange={onView}
        optionLabel={(option) => t(`calendar.${option}`)}
      />
      <div className="flex gap-1">
        <Button size="sm" variant="secondary" onClick={() => onDay(stepDay(view, day, -1))} aria-label={t(`calendar.previous.${view}`)}>
          <span aria-hidden>‹</span>
        </Button>
        <Button size="sm" variant="secondary" onClick={() => onDay(brasiliaDay(Date.now()))}>
          {t('calendar.today')}
        </Button>
        <Button size="sm" variant="secondary" onClick={() => onDay(stepDay(view, day, 1))} aria-label={t(`calendar.next.${view}`)}>
          <span aria-hidden>›</span>
        </Button>
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <span className="whitespace-nowrap">{t('calendar.agenda')}</span>
        <select
          className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600"
          value={shown ?? ''}
          disabled={!hydrated}
          onChange={(event) => onAgenda(event.target.value ? Number(event.target.value) : undefined)}
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
  );
}

/** Day view with more agendas than fit: which of them are shown, and buttons to page through them. */
export function AgendaPager({
  start,
  fit,
  shown,
  total,
  onOffset,
}: {
  start: number;
  fit: number;
  shown: number;
  total: number;
  onOffset: (offset: number) => void;
}) {
  const t = useT();
  return (
    <div className="flex items-center gap-2 text-sm text-slate-700">
      <Button
        size="sm"
        variant="secondary"
        disabled={start === 0}
        onClick={() => onOffset(Math.max(0, start - fit))}
        aria-label={t('calendar.previousAgendas')}
      >
        <span aria-hidden>‹</span>
      </Button>
      <span aria-live="polite">{t('calendar.agendaPage', { first: start + 1, last: start + shown, total })}</span>
      <Button
        size="sm"
        variant="secondary"
        disabled={start + fit >= total}
        onClick={() => onOffset(start + fit)}
        aria-label={t('calendar.nextAgendas')}
      >
        <span aria-hidden>›</span>
      </Button>
    </div>
  );
}
