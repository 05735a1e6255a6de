'use client';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { ReadyContext } from '@/components/ui/use-ready';
import { useT } from '@/lib/i18n/client';
import type { FreeSlot } from '@/lib/scheduling/contract';
import { SlotCalendar } from './slot-calendar';

/**
 * Where the slots are chosen: a calendar of the day or week (the default), or the searchable
 * table, its accessible alternative. The calendar arrives with the page, its first view rendered
 * by the server (issue 47); the table is loaded when chosen, in a chunk of its own, the box keeping
 * its height meanwhile.
 */
function Loading() {
  const t = useT();
  return (
    <div className="flex min-h-[34rem] items-start">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

const FreeSlotList = lazy(() => import('./free-slot-list').then((module) => ({ default: module.FreeSlotList })));

export type SlotView = 'calendar' | 'list';
const VIEWS: readonly SlotView[] = ['calendar', 'list'];

// The operator's choice of view, kept in this browser (the server renders the calendar).
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
      {view === 'calendar' ? (
        <SlotCalendar onPick={onPick} />
      ) : (
        <Suspense fallback={<Loading />}>
          <FreeSlotList onPick={onPick} />
        </Suspense>
      )}
    </Card>
  );
}
