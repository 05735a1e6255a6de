'use client';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, useEffect, useImperativeHandle, useRef, useState, type RefObject } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { apiFetch } from '@/lib/client/api';
import { useApiCaller } from '@/lib/client/api-base';
import { contractResolver, setServerFieldErrors, withFieldChecks } from '@/lib/client/form-errors';
import { loadClientSchema } from '@/lib/client/load-schema';
import { schedulingKeys, useProcedures } from '@/lib/client/scheduling-queries';
import { apiPath, releaseRecentReservation, reserveOrReleaseSlot } from '@/lib/api/routes';
import { useMessages, useT } from '@/lib/i18n/client';
import type { MessageKey, TranslateValues } from '@/lib/i18n';
import type { FreeSlot, Procedure, Slot } from '@/lib/scheduling/contract';
import type { ReservationOutcomeView } from '@/lib/scheduling/outcome';
import type { RecentReservation } from '@/lib/scheduling/recent-reservations';
import {
  chosenProcedure,
  durationForExam,
  EMPTY_RESERVATION_FORM,
  missingRequiredSide,
  releaseOf,
  releaseOfRecent,
  toReservationBody,
  type DurationOrigin,
  type ReservationFormValues,
} from '@/lib/scheduling/reservation-form-values';
import { AfterHydration } from '@/components/ui/after-hydration';
import { FormLibraryScope, FormProvider, useForm, useFormLibrary } from '@/components/ui/form-library';
import { ReadyContext } from '@/components/ui/use-ready';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { FreeSlotPicker } from './free-slot-picker';
import { OutcomePanel, type OutcomeState } from './outcome-panel';
import { ReservationForm } from './reservation-form';

function RecentLoading() {
  const t = useT();
  return (
    <Card title={t('recent.title')} titleId="recent-title" description={t('recent.intro')}>
      <Spinner label={t('common.loading')} />
    </Card>
  );
}

// Below the form, so it loads after it (its data came with the page).
const RecentReservations = lazy(() => import('./recent-reservations').then((module) => ({ default: module.RecentReservations })));

const FORM_ID = 'reservation-form';

/**
 * The reservation page: free slots → request → outcome, and the recent reservations below. Its
 * react-hook-form arrives after hydration (form-library.tsx). Until then the page shows the same
 * form, not ready yet, and so are the controls that fill it (a slot's "Usar", a recent
 * reservation's "Liberar"). Only the form mounts again once the library is there: the calendar
 * and the lists around it stay as they are. A recent reservation the service kept the patient's
 * identifiers for is released in one click and a confirmation, its answer shown like the form's.
 */
export function ReservationWorkspace() {
  const t = useT();
  const api = useApiCaller();
  const messages = useMessages();
  const queryClient = useQueryClient();
  const procedures = useProcedures();
  const formLibrary = useFormLibrary();
  // The form's methods, for the parts around it that fill it or show the server's field errors.
  const formRef = useRef<UseFormReturn<ReservationFormValues>>(null);
  // What the Resultado panel shows: the last answer, or why there is none for the latest attempt.
  const [outcome, setOutcome] = useState<OutcomeState>();
  // What the form was just filled with (a slot, a release), said above it: in the page's flow, where
  // a toast would cover the form on a phone and the recent list's "Liberar" on a wide screen.
  const [notice, setNotice] = useState<{ key: MessageKey; values?: TranslateValues }>();
  // What this page sent for each token it got back: a release prepared from the recent list can
  // then refill the patient identifiers, which the audit trail only keeps masked.
  const sentFor = useRef(new Map<string, ReservationFormValues>());
  const durationOrigin = useRef<DurationOrigin | undefined>(undefined);
  // The resolver reads the listing through a ref: it is created once, the listing arrives later.
  const listing = useRef<readonly Procedure[]>([]);
  useEffect(() => {
    listing.current = procedures.data ?? [];
  }, [procedures.data]);
  const resolver = withFieldChecks(
    contractResolver(
      () => import('@/lib/scheduling/contract').then((contract) => contract.slotReservationSchema),
      messages,
      toReservationBody,
    ),
    // The check runs at validation time, never during render, so reading the ref there is safe.
    // eslint-disable-next-line react-hooks/refs
    (values) =>
      missingRequiredSide(values, listing.current)
        ? [{ field: 'ieLado', pointer: '#/ieLado', code: 'sideRequired', message: t('validation.code.sideRequired') }]
        : [],
  );
  const form = () => formRef.current;

  // One request at a time (the submit button waits for it). Plain state rather than useMutation:
  // its observer would be the page's only use, and the page keeps its first load small (issue 21).
  const [sending, setSending] = useState(false);

  /** A POST of the reservation route (the form's) or of the one-click release, read as the outcome panel shows it. */
  async function post(path: string, requestBody?: unknown) {
    const response = await apiFetch(api, path, {
      method: 'POST',
      ...(requestBody === undefined ? {} : { body: JSON.stringify(requestBody) }),
    });
    const body: unknown = await response.json().catch(() => null);
    // Reading the answer needs zod and the outcome rules: both arrive with the first request.
    const [responseSchema, { outcomeFrom }] = await Promise.all([
      loadClientSchema(() => import('@/lib/scheduling/contract').then((contract) => contract.slotReservationResponseSchema)),
      import('@/lib/scheduling/outcome'),
    ]);
    return outcomeFrom(response.status, response.headers.get('content-type'), body, responseSchema);
  }

  /** Sends one request and shows its answer; undefined when fetch() itself failed. */
  async function attempt(path: string, requestBody?: unknown): Promise<ReservationOutcomeView | undefined> {
    setOutcome({ kind: 'pending' });
    setSending(true);
    let view: ReservationOutcomeView | undefined;
    try {
      view = await post(path, requestBody);
    } catch {
      // fetch() itself failed: no HTTP answer at all (offline, server down, connection cut).
      setOutcome({ kind: 'network' });
    } finally {
      setSending(false);
    }
    return view;
  }

  function answered(view: ReservationOutcomeView, values?: ReservationFormValues) {
    setOutcome(view);
    setNotice(undefined);
    if (values && view.kind === 'codigo' && view.codigo === '0') {
      sentFor.current.set(view.body.TOKEN_RESERVA_P, values);
      // The slot just taken leaves every cached listing at once, not when the refetch lands.
      queryClient.setQueriesData<FreeSlot[]>({ queryKey: schedulingKeys.allSlots }, (slots) =>
        slots?.filter((slot) => slot.NR_SEQ_AGENDA !== Number(values.nrSeqAgenda)),
      );
      // The calendar shows it held at once; the refetch below adds when the hold lapses.
      queryClient.setQueriesData<Slot[]>({ queryKey: schedulingKeys.allGrids }, (slots) =>
        slots?.map((slot) => (slot.NR_SEQ_AGENDA === Number(values.nrSeqAgenda) ? { ...slot, situacao: 'reservado' } : slot)),
      );
    }
    // The body's own errors (no field) are shown with the outcome, not on the form.
    const current = form();
    if (view.kind === 'validation' && current)
      setServerFieldErrors(
        view.errors.filter((error) => error.field),
        current.setError,
      );
    void queryClient.invalidateQueries({ queryKey: schedulingKeys.recent });
    void queryClient.invalidateQueries({ queryKey: schedulingKeys.allSlots });
    void queryClient.invalidateQueries({ queryKey: schedulingKeys.allGrids });
    document.getElementById('outcome-title')?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }

  async function send(values: ReservationFormValues) {
    const view = await attempt(apiPath(reserveOrReleaseSlot), toReservationBody(values));
    if (view) answered(view, values);
  }

  function fill(values: ReservationFormValues, message?: MessageKey) {
    durationOrigin.current = undefined;
    form()?.reset(values);
    setNotice(message ? { key: message } : undefined);
    document.getElementById('request-title')?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }

  function pickSlot(slot: FreeSlot) {
    form()?.setValue('nrSeqAgenda', String(slot.NR_SEQ_AGENDA), { shouldValidate: true, shouldDirty: true });
    form()?.setValue('nrMinDuracao', String(slot.NR_MIN_DURACAO), { shouldValidate: true, shouldDirty: true });
    durationOrigin.current = { source: 'slot', value: String(slot.NR_MIN_DURACAO) };
    setNotice({ key: 'slots.filled', values: { slot: slot.NR_SEQ_AGENDA } });
    // On to the form, so keyboard users need not tab past every other "Usar" button.
    document.getElementById('field-nrSeqProcInterno')?.focus();
  }

  function chooseExam(code: string) {
    const procedure = chosenProcedure({ nrSeqProcInterno: code }, listing.current);
    const current = form();
    if (!procedure || !current) return;
    const duration = durationForExam(current.getValues('nrMinDuracao'), durationOrigin.current, procedure);
    if (duration !== undefined) {
      current.setValue('nrMinDuracao', duration, { shouldValidate: true, shouldDirty: true });
      durationOrigin.current = { source: 'exam', value: duration };
    }
    // The side rule depends on the exam: re-check ieLado once it was shown to the operator.
    if (current.formState.submitCount > 0 || current.getFieldState('ieLado').isTouched) void current.trigger('ieLado');
  }

  function prepareRelease(token: string) {
    const sent = sentFor.current.get(token) ?? form()?.getValues();
    if (!sent) return;
    fill(releaseOf(sent, token), 'outcome.releasePrepared');
  }

  /**
   * "Liberar" on a recent reservation: after a confirmation, released by the service with what it
   * kept. One it kept nothing for (made by an API client) fills the form, this page's own values
   * when it sent it, for the operator to complete.
   */
  async function releaseFromRecent(reservation: RecentReservation) {
    const known = sentFor.current.get(reservation.token);
    if (!reservation.liberacaoDireta) {
      fill(releaseOfRecent(reservation, known), known ? 'outcome.releasePrepared' : 'recent.releasePrepared');
      return;
    }
    if (!window.confirm(t('recent.releaseConfirm', { slot: reservation.nrSeqAgenda, token: reservation.token }))) return;
    setNotice(undefined);
    const view = await attempt(apiPath(releaseRecentReservation, { token: reservation.token }));
    if (view) answered(view);
  }

  return (
    // Outside the form's scope, what fills the form is ready when the form is.
    <ReadyContext value={formLibrary.ready}>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
        <div className="flex min-w-0 flex-col gap-6">
          <FreeSlotPicker onPick={pickSlot} formId={FORM_ID} />
          {notice ? (
            <Alert tone="info" role="status">
              {t(notice.key, notice.values)}
            </Alert>
          ) : null}
          <FormLibraryScope state={formLibrary}>
            <RequestForm
              formRef={formRef}
              resolver={resolver}
              onValid={send}
              // A blocked attempt must not leave the previous answer looking like this one's.
              onBlocked={() => setOutcome({ kind: 'blocked' })}
              sending={sending}
              onClear={() => fill(EMPTY_RESERVATION_FORM)}
              procedures={procedures}
              onExamChange={chooseExam}
            />
          </FormLibraryScope>
        </div>
        <div className="flex min-w-0 flex-col gap-6 lg:sticky lg:top-4">
          <OutcomePanel outcome={outcome} onPrepareRelease={prepareRelease} />
        </div>
      </div>
      <div className="mt-6">
        <AfterHydration fallback={<RecentLoading />}>
          <RecentReservations onRelease={(reservation) => void releaseFromRecent(reservation)} releasing={sending} />
        </AfterHydration>
      </div>
    </ReadyContext>
  );
}

type RequestFormProps = Omit<Parameters<typeof ReservationForm>[0], 'formId' | 'onSubmit'> & {
  formRef: RefObject<UseFormReturn<ReservationFormValues> | null>;
  resolver: ReturnType<typeof withFieldChecks<ReservationFormValues>>;
  onValid: (values: ReservationFormValues) => Promise<void>;
  onBlocked: () => void;
};

/** The request form and its state: the one part that mounts again when react-hook-form arrives. */
function RequestForm({ formRef, resolver, onValid, onBlocked, ...props }: RequestFormProps) {
  const form = useForm<ReservationFormValues>({ defaultValues: EMPTY_RESERVATION_FORM, resolver, mode: 'onChange' });
  useImperativeHandle(formRef, () => form, [form]);
  return (
    <FormProvider {...form}>
      <ReservationForm formId={FORM_ID} onSubmit={form.handleSubmit(onValid, onBlocked)} {...props} />
    </FormProvider>
  );
}
