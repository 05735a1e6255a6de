'use client';
import { lazy, useSyncExternalStore } from 'react';
import { AfterHydration } from '@/components/ui/after-hydration';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { ReadyContext } from '@/components/ui/use-ready';
import { useT } from '@/lib/i18n/client';
import type { FreeSlot } from '@/lib/scheduling/contract';

/**
 * Where the slots are chosen: a calendar of the day or week (the default), or the searchable
 * table, its accessible alternative. Both are loaded after the form, in chunks of their own, so
 * neither weighs on the page's first load; the box keeps their height meanwhile.
 */
function Loading() {
  const t = useT();
  return (
    <div className="flex min-h-[34rem] items-start">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

const SlotCalendar = lazy(() => import('./slot-calendar').then((module) => ({ default: module.SlotCalendar })));
const FreeSlotList = lazy(() => import('./free-slot-list').then((module) => ({ default: module.FreeSlotList })));

export type SlotView = 'calendar' | 'list';
const VIEWS: readonly SlotView[] = ['calendar', 'list'];

// The operator's choice of view, kept in this browser (the server renders the calendar's box).
const VIEW_KEY = 'scheduling.slotView';
const viewListeners = new Set<() => void>();
function subscribe(listener: () => void) {
  viewListeners.add(listener);
  return () => void viewListeners.delete(listener);
}
function storedView(): SlotView {
  try {
    return window.localStorage.getItem(VIEW_KEY) === 'list' ? 'list' : 'calendar';
  } catch {
    return 'calendar';
  }
}
function storeView(view: SlotView) {
  try {
    window.localStorage.setItem(VIEW_KEY, view);
  } catch {
    // storage refused (private mode): the choice lasts until the page is left
  }
  viewListeners.forEach((listener) => listener());
}

/** `formId` is where the skip link, "Usar" and a calendar slot send keyboard focus. */
export function FreeSlotPicker({ onPick, formId }: { onPick: (slot: FreeSlot) => void; formId: string }) {
  const t = useT();
  const view = useSyncExternalStore(subscribe, storedView, () => 'calendar' as const);
  return (
    <Card
      title={t('slots.title')}
      titleId="slots-title"
      description={t('slots.intro')}
      actions={
        // The view switch needs none of the form's code: it works as soon as the page has hydrated.
        <ReadyContext value>
          <ToggleGroup
            label={t('slots.view')}
            options={VIEWS}
            value={view}
            onChange={storeView}
            optionLabel={(option) => t(`slots.view.${option}`)}
          />
        </ReadyContext>
      }
    >
      <a
        href={`#${formId}`}
        className="sr-only rounded bg-white px-2 py-1 text-sm font-medium text-indigo-700 underline focus:not-sr-only focus:mb-2 focus:inline-block focus:outline-2 focus:outline-indigo-600"
      >
        {t('app.skipToForm')}
      </a>
      <AfterHydration fallback={<Loading />}>
        {view === 'calendar' ? <SlotCalendar onPick={onPick} /> : <FreeSlotList onPick={onPick} />}
      </AfterHydration>
    </Card>
  );
}
