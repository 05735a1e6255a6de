'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { FormProvider, useForm, type Path } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { useToast } from '@/components/ui/toast';
import { apiFetch } from '@/lib/client/api';
import { contractResolver } from '@/lib/client/form-errors';
import { RESERVE_PATH, schedulingKeys } from '@/lib/client/scheduling-queries';
import { useLocale, useT } from '@/lib/i18n/client';
import type { MessageKey } from '@/lib/i18n';
import { slotReservationSchema, type FreeSlot } from '@/lib/scheduling/contract';
import { outcomeFrom, type ReservationOutcomeView } from '@/lib/scheduling/outcome';
import type { RecentReservation } from '@/lib/scheduling/recent-reservations';
import {
  EMPTY_RESERVATION_FORM,
  releaseOf,
  releaseOfRecent,
  toReservationBody,
  type ReservationFormValues,
} from '@/lib/scheduling/reservation-form-values';
import { FreeSlotPicker } from './free-slot-picker';
import { OutcomePanel } from './outcome-panel';
import { RecentReservations } from './recent-reservations';
import { ReservationForm } from './reservation-form';

/** The reservation page: free slots → request → outcome, and the recent reservations below. */
export function ReservationWorkspace() {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<ReservationOutcomeView>();
  const [notice, setNotice] = useState<MessageKey>();
  // What this page sent for each token it got back: a release prepared from the recent list can
  // then refill the patient identifiers, which the audit trail only keeps masked.
  const sentFor = useRef(new Map<string, ReservationFormValues>());
  const form = useForm<ReservationFormValues>({
    defaultValues: EMPTY_RESERVATION_FORM,
    resolver: contractResolver(slotReservationSchema, locale, toReservationBody),
    mode: 'onChange',
  });

  const send = useMutation({
    mutationFn: async (values: ReservationFormValues) => {
      const response = await apiFetch(locale, RESERVE_PATH, { method: 'POST', body: JSON.stringify(toReservationBody(values)) });
      const body: unknown = await response.json().catch(() => null);
      return { values, view: outcomeFrom(response.status, response.headers.get('content-type'), body) };
    },
    onSuccess: ({ values, view }) => {
      setOutcome(view);
      setNotice(undefined);
      if (view.kind === 'codigo' && view.codigo === '0') sentFor.current.set(view.body.TOKEN_RESERVA_P, values);
      if (view.kind === 'validation') {
        for (const error of view.errors) {
          if (error.field) form.setError(error.field as Path<ReservationFormValues>, { type: 'server', message: error.message });
        }
      }
      void queryClient.invalidateQueries({ queryKey: schedulingKeys.recent });
      void queryClient.invalidateQueries({ queryKey: schedulingKeys.allSlots });
      document.getElementById('outcome-title')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    },
    onError: () => setOutcome({ kind: 'problem', status: 0, tone: 'danger', detail: t('error.network') }),
  });

  function fill(values: ReservationFormValues, message?: MessageKey) {
    form.reset(values);
    setNotice(message);
    document.getElementById('request-title')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }

  function pickSlot(slot: FreeSlot) {
    form.setValue('nrSeqAgenda', String(slot.NR_SEQ_AGENDA), { shouldValidate: true, shouldDirty: true });
    form.setValue('nrMinDuracao', String(slot.NR_MIN_DURACAO), { shouldValidate: true, shouldDirty: true });
    toast(t('slots.filled', { slot: slot.NR_SEQ_AGENDA }));
  }

  function prepareRelease(token: string) {
    const sent = sentFor.current.get(token) ?? form.getValues();
    fill(releaseOf(sent, token), 'outcome.releasePrepared');
  }

  function releaseFromRecent(reservation: RecentReservation) {
    const known = sentFor.current.get(reservation.token);
    fill(releaseOfRecent(reservation, known), known ? 'outcome.releasePrepared' : 'recent.releasePrepared');
  }

  return (
    <FormProvider {...form}>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
        <div className="flex min-w-0 flex-col gap-6">
          <FreeSlotPicker onPick={pickSlot} />
          {notice ? (
            <Alert tone="info" role="status">
              {t(notice)}
            </Alert>
          ) : null}
          <ReservationForm
            onSubmit={form.handleSubmit((values) => send.mutate(values))}
            sending={send.isPending}
            onClear={() => fill(EMPTY_RESERVATION_FORM)}
          />
        </div>
        <div className="flex min-w-0 flex-col gap-6 lg:sticky lg:top-4">
          <OutcomePanel outcome={outcome} onPrepareRelease={prepareRelease} />
        </div>
      </div>
      <div className="mt-6">
        <RecentReservations onRelease={releaseFromRecent} />
      </div>
    </FormProvider>
  );
}
