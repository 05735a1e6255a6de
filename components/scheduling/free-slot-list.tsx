'use client';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { QueryStatus } from '@/components/console/query-status';
import { useFreeSlots, type FreeSlotFilters } from '@/lib/client/slot-queries';
import { useLocale, useT } from '@/lib/i18n/client';
import type { FreeSlot } from '@/lib/scheduling/contract';
import { brasiliaDateTime, brasiliaInputToIso } from '@/lib/i18n/brasilia-time';
import { formText } from '@/components/ui/form-text';
import { Form } from '@/components/ui/form';
import { ColumnHeaders } from '@/components/ui/column-headers';

const sameFilters = (a: FreeSlotFilters, b: FreeSlotFilters) => a.de === b.de && a.ate === b.ate && a.cdAgenda === b.cdAgenda;

/**
 * The free slots as a searchable table, the calendar's accessible alternative: filters by period
 * and agenda, and a "Usar" button per slot. Loaded after the form (free-slot-picker.tsx).
 */
export function FreeSlotList({ onPick }: { onPick: (slot: FreeSlot) => void }) {
  const t = useT();
  const locale = useLocale();
  const [filters, setFilters] = useState<FreeSlotFilters>({});
  const slots = useFreeSlots(filters);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => formText(form, name).trim();
    const next: FreeSlotFilters = {
      de: brasiliaInputToIso(text('de')),
      ate: brasiliaInputToIso(text('ate')),
      cdAgenda: text('cdAgenda') || undefined,
    };
    // Asking again with the same filters is how an operator sees slots others took meanwhile.
    if (sameFilters(next, filters)) void slots.refetch();
    else setFilters(next);
  }

  return (
    <>
      <Form
        onSubmit={handleSubmit}
        className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_1fr_8rem_auto] sm:items-end"
        aria-label={t('slots.title')}
      >
        <Field id="slots-de" label={t('slots.from')} badge={t('time.brasilia')}>
          <Input id="slots-de" name="de" type="datetime-local" />
        </Field>
        <Field id="slots-ate" label={t('slots.to')} badge={t('time.brasilia')}>
          <Input id="slots-ate" name="ate" type="datetime-local" />
        </Field>
        <Field id="slots-cdAgenda" label={t('slots.cdAgenda')}>
          <Input id="slots-cdAgenda" name="cdAgenda" inputMode="numeric" autoComplete="off" title={t('slots.cdAgendaHelp')} />
        </Field>
        <Button type="submit" variant="secondary">
          {t('slots.search')}
        </Button>
      </Form>
      <p role="status" className="mt-2 min-h-5 text-xs text-slate-600" data-testid="slots-fetching">
        {slots.isFetching && !slots.isPending ? t('slots.searching') : null}
      </p>

      <div className="mt-2">
        <QueryStatus query={slots} empty={t('slots.empty')}>
          {(items) => (
            <div
              className="relative max-h-72 overflow-auto rounded-md border border-slate-200"
              tabIndex={0}
              aria-label={t('slots.title')}
              role="region"
            >
              <table className="w-full text-left text-sm" data-testid="free-slots">
                <thead className="sticky top-0 bg-slate-100 text-xs text-slate-700">
                  <ColumnHeaders
                    columns={[
                      { label: t('slots.column.when'), time: true },
                      { label: t('slots.column.agenda'), mono: true, hideBelow: 'sm' },
                      { label: t('slots.column.slot'), mono: true },
                      { label: t('slots.column.minutes'), mono: true, hideBelow: 'sm' },
                      { label: t('webhooks.column.actions'), actions: true },
                    ]}
                  />
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {items.map((slot) => {
                    const when = brasiliaDateTime(slot.DT_AGENDA, locale);
                    return (
                      <tr key={slot.NR_SEQ_AGENDA} className="hover:bg-slate-50">
                        <td className="px-3 py-1.5 whitespace-nowrap">
                          {when}
                          {/* A phone has no room for the agenda and duration columns: they read under the time. */}
                          <span className="block text-xs text-slate-600 sm:hidden">
                            {t('slots.agendaAndMinutes', { agenda: slot.CD_AGENDA, minutes: slot.NR_MIN_DURACAO })}
                          </span>
                        </td>
                        <td className="hidden px-3 py-1.5 font-mono sm:table-cell">{slot.CD_AGENDA}</td>
                        <td className="px-3 py-1.5 font-mono">{slot.NR_SEQ_AGENDA}</td>
                        <td className="hidden px-3 py-1.5 sm:table-cell">{t('slots.minutes', { minutes: slot.NR_MIN_DURACAO })}</td>
                        <td className="px-3 py-1.5 text-right">
                          <Button
                            size="sm"
                            variant="secondary"
                            onClick={() => onPick(slot)}
                            aria-label={t('slots.useLabel', { slot: slot.NR_SEQ_AGENDA, when })}
                          >
                            {t('slots.use')}
                          </Button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </QueryStatus>
      </div>
    </>
  );
}
