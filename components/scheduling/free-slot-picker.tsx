'use client';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { QueryStatus } from '@/components/console/query-status';
import { useFreeSlots, type FreeSlotFilters } from '@/lib/client/scheduling-queries';
import { useLocale, useT } from '@/lib/i18n/client';
import type { FreeSlot } from '@/lib/scheduling/contract';
import { slotWallClock } from './slot-time';

/** `datetime-local` text (no zone) as the instant it means in the browser, with an offset. */
function toIso(local: FormDataEntryValue | null): string | undefined {
  if (typeof local !== 'string' || local === '') return undefined;
  const instant = new Date(local);
  return Number.isNaN(instant.getTime()) ? undefined : instant.toISOString();
}

export function FreeSlotPicker({ onPick }: { onPick: (slot: FreeSlot) => void }) {
  const t = useT();
  const locale = useLocale();
  const [filters, setFilters] = useState<FreeSlotFilters>({});
  const slots = useFreeSlots(filters);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const cdAgenda = String(form.get('cdAgenda') ?? '').trim();
    setFilters({ de: toIso(form.get('de')), ate: toIso(form.get('ate')), cdAgenda: cdAgenda || undefined });
  }

  return (
    <Card title={t('slots.title')} titleId="slots-title" description={t('slots.intro')}>
      <form onSubmit={handleSubmit} className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_1fr_8rem_auto] sm:items-end" aria-label={t('slots.title')}>
        <Field id="slots-de" label={t('slots.from')} mono badge={t('slots.fromHelp')}>
          <Input id="slots-de" name="de" type="datetime-local" />
        </Field>
        <Field id="slots-ate" label={t('slots.to')} mono badge={t('slots.toHelp')}>
          <Input id="slots-ate" name="ate" type="datetime-local" />
        </Field>
        <Field id="slots-cdAgenda" label={t('slots.cdAgenda')} mono>
          <Input id="slots-cdAgenda" name="cdAgenda" inputMode="numeric" autoComplete="off" title={t('slots.cdAgendaHelp')} />
        </Field>
        <Button type="submit" variant="secondary">
          {t('slots.search')}
        </Button>
      </form>

      <div className="mt-4">
        <QueryStatus query={slots} empty={t('slots.empty')}>
          {(items) => (
          <div className="relative max-h-72 overflow-auto rounded-md border border-slate-200" tabIndex={0} aria-label={t('slots.title')} role="region">
            <table className="w-full text-left text-sm">
              <thead className="sticky top-0 bg-slate-100 text-xs text-slate-700">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">{t('slots.column.when')}</th>
                  <th scope="col" className="hidden px-3 py-2 font-mono font-medium sm:table-cell">{t('slots.column.agenda')}</th>
                  <th scope="col" className="px-3 py-2 font-mono font-medium">{t('slots.column.slot')}</th>
                  <th scope="col" className="hidden px-3 py-2 font-mono font-medium sm:table-cell">{t('slots.column.minutes')}</th>
                  <th scope="col" className="px-3 py-2"><span className="sr-only">{t('webhooks.column.actions')}</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {items.map((slot) => {
                  const when = slotWallClock(slot.DT_AGENDA, locale);
                  return (
                    <tr key={slot.NR_SEQ_AGENDA} className="hover:bg-slate-50">
                      <td className="px-3 py-1.5 whitespace-nowrap">{when}</td>
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
    </Card>
  );
}
