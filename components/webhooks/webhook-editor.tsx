'use client';
import { Link } from '@/components/ui/link';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { lazy, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import { FormProvider, useForm, WithFormLibrary } from '@/components/ui/form-library';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useToast } from '@/components/ui/toast';
import { ProblemMessage } from '@/components/console/problem-message';
import { useUnsavedChanges } from '@/components/console/use-unsaved-changes';
import { ApiProblem, apiJson } from '@/lib/client/api';
import { contractResolver, showRefusedFields } from '@/lib/client/form-errors';
import { useWebhook, webhookKeys, type LoadedWebhook } from '@/lib/client/webhook-queries';
import { apiPath, updateWebhookConfiguration } from '@/lib/api/routes';
import { useMessages, useT } from '@/lib/i18n/client';
import type { UrlPolicy, WebhookDetail, WebhookView } from '@/lib/webhooks/configurations/contract';
import { WEBHOOK_EVENT_FLAGS, type WebhookEventFlag } from '@/lib/webhooks/events/types';
import { DeleteWebhookButton } from './delete-webhook-button';
import { DeliveryStateCard } from './delivery-state-card';
import { HeadersEditor } from './headers-editor';
import { UrlField } from './url-field';
import { BrokerCredentialsFields, credentialsBody, DestinationKindPicker } from './destination-kind';
import type { WebhookFormValues } from './webhook-form-values';
import { ContactEmailField } from './contact-email-field';
import { RecoveryOffer, useRecoveryOffer } from './recovery-offer';
import { deliveryControlsBody, type DeliveryControlsValues } from './delivery-controls-fields';
import { Form } from '@/components/ui/form';
import { AfterHydration } from '@/components/ui/after-hydration';
import { useSurface } from '@/components/console/surface';
import { PortalAccessCard } from '@/components/portal/portal-access-card';
import { OPERATOR_TENANT } from '@/lib/webhooks/events/operational';
import { SectionNav } from './section-nav';
import type { EditorSectionId } from './editor-sections';
import { PayloadControlCard } from './payload-control-card';
import { useApiCaller } from '@/lib/client/api-base';

// Below the form: delivery health and the delivery log load once the page is interactive, out of
// its first load (the form is what staff come to this page for).
const DeliveryHealthCard = lazy(() => import('./delivery-health-card').then((module) => ({ default: module.DeliveryHealthCard })));
const DeliveriesPanel = lazy(() => import('./deliveries-panel').then((module) => ({ default: module.DeliveriesPanel })));

/** The editor's values: the create form's, the technical contact (empty: none) and the delivery controls. */
type EditorFormValues = WebhookFormValues & DeliveryControlsValues & { emailContato: string };

function formValuesOf(config: WebhookDetail): EditorFormValues {
  const flags = Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, config[flag]])) as Record<WebhookEventFlag, boolean>;
  return {
    url: config.url,
    headers: config.headers.map((header) => ({ ...header })),
    ativo: config.ativo,
    emailContato: config.emailContato ?? '',
    credenciais: { usuario: '', senha: '' },
    limiteEntregasPorSegundo: config.limiteEntregasPorSegundo === null ? '' : String(config.limiteEntregasPorSegundo),
    entregaOrdenada: config.entregaOrdenada,
    ...flags,
  };
}

/**
 * The PUT body: the URL only when it was changed. A stored URL is the server's to judge (it may
 * have been saved under another policy); checking it again here would block saving anything else.
 * An empty contact e-mail or rate limit removes it (null).
 */
function toBody(values: EditorFormValues, storedUrl: string) {
  const { url, emailContato, limiteEntregasPorSegundo, entregaOrdenada, credenciais, ...rest } = values;
  const contact = emailContato.trim() === '' ? null : emailContato.trim();
  const login = credentialsBody(url, credenciais);
  const body = {
    ...rest,
    ...deliveryControlsBody({ limiteEntregasPorSegundo, entregaOrdenada }),
    emailContato: contact,
    ...(login ? { credenciais: login } : {}),
  };
  return url === storedUrl ? body : { ...body, url };
}

function BackToList({ onNavigate }: { onNavigate?: (event: MouseEvent<HTMLAnchorElement>) => void }) {
  const t = useT();
  const { home } = useSurface();
  return (
    <Link href={home} onClick={onNavigate} className={buttonClasses('ghost', 'sm', '-ml-2 mb-2')}>
      <span aria-hidden>←</span> {t('webhook.backToList')}
    </Link>
  );
}

/**
 * `identity` and `events` are the server's (WebhookIdentity, EventToggles): static parts the form
 * shows in place, rendered once there rather than by the browser too.
 */
export function WebhookEditor({
  id,
  retentionDays,
  urlPolicy,
  identity,
  events,
}: {
  id: string;
  retentionDays: number;
  urlPolicy: UrlPolicy;
  identity: ReactNode;
  events: ReactNode;
}) {
  const t = useT();
  const surface = useSurface();
  const query = useWebhook(id);
  const back = <BackToList />;
  if (query.isPending)
    return (
      <>
        {back}
        <Spinner label={t('common.loading')} />
      </>
    );
  if (query.isError) {
    return (
      <>
        {back}
        <Alert
          tone="danger"
          role="alert"
          actions={
            query.error instanceof ApiProblem && query.error.status === 404 ? undefined : (
              <Button variant="secondary" size="sm" onClick={() => query.refetch()}>
                {t('common.retry')}
              </Button>
            )
          }
        >
          {query.error instanceof ApiProblem && query.error.status === 404 ? t('webhook.notFound') : <ProblemMessage error={query.error} />}
        </Alert>
      </>
    );
  }
  // A new version (saved here or reloaded after a conflict) starts a fresh form; the deliveries stay.
  return (
    <>
      {/* Beside the sections, not inside the form: it stays in view (sticky) down to the last one. */}
      <SectionNav consolePartner={surface.kind === 'console' && query.data.config.usuarioId !== OPERATOR_TENANT} />
      {/* react-hook-form arrives after hydration; until then the same form, not ready yet. */}
      <WithFormLibrary>
        <WebhookForm
          key={query.data.etag}
          loaded={query.data}
          urlPolicy={urlPolicy}
          identity={identity}
          events={events}
          onReload={() => query.refetch()}
          reloading={query.isFetching}
        />
      </WithFormLibrary>
      <PayloadControlCard key={`payload-${query.data.etag}`} loaded={query.data} />
      {surface.kind === 'console' && query.data.config.usuarioId !== OPERATOR_TENANT ? (
        <PortalAccessCard usuarioId={query.data.config.usuarioId} sistemaOrigem={query.data.config.sistemaOrigem} />
      ) : null}
      <AfterHydration fallback={<Spinner label={t('common.loading')} />}>
        <DeliveryHealthCard id={query.data.config.id} />
        <DeliveriesPanel id={query.data.config.id} retentionDays={retentionDays} />
      </AfterHydration>
    </>
  );
}

function WebhookForm({
  loaded,
  urlPolicy,
  identity,
  events,
  onReload,
  reloading,
}: {
  loaded: LoadedWebhook;
  urlPolicy: UrlPolicy;
  identity: ReactNode;
  events: ReactNode;
  onReload: () => void;
  reloading: boolean;
}) {
  const t = useT();
  const api = useApiCaller();
  const messages = useMessages();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { home, readOnly } = useSurface();
  const [conflict, setConflict] = useState(false);
  const [recoveryOffer, setRecoveryOffer] = useRecoveryOffer(loaded.config.id);
  const { config } = loaded;
  const [initialValues] = useState(() => formValuesOf(config));
  // The PUT's own schema under the server's URL policy, checking the body that will be sent.
  const resolver = useMemo(
    () =>
      contractResolver(
        () => import('@/lib/webhooks/configurations/contract').then((contract) => contract.webhookUpdateSchemaFor(urlPolicy)),
        messages,
        (values: EditorFormValues) => toBody(values, config.url),
      ),
    [messages, urlPolicy, config.url],
  );
  const form = useForm<EditorFormValues>({ defaultValues: initialValues, resolver, mode: 'onChange' });
  const { handleSubmit, formState, setError } = form;
  // The values as they are now, not RHF's rendered isDirty (see useUnsavedChanges). They are plain
  // JSON built in the same key order as the initial values, so their serialisations compare.
  const confirmDiscard = useUnsavedChanges(() => JSON.stringify(form.getValues()) !== JSON.stringify(initialValues));
  const leaveUnlessKept = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!confirmDiscard(t('webhook.discardConfirm'))) event.preventDefault();
  };

  const save = useMutation({
    mutationFn: (values: EditorFormValues) =>
      apiJson<WebhookView>(api, apiPath(updateWebhookConfiguration, { id: config.id }), {
        method: 'PUT',
        headers: { 'If-Match': loaded.etag },
        body: JSON.stringify(toBody(values, config.url)),
      }),
    onSuccess: ({ body, headers }) => {
      // A url naming another broker dropped the stored login (issue 43): say so, not just "saved".
      toast(t(headers.get('credenciais-descartadas') === 'true' ? 'webhook.savedLoginDropped' : 'webhook.saved'));
      // Switched back on: offer to send again what was skipped while off.
      if (!config.ativo && body.ativo) setRecoveryOffer(body.recuperacaoSugerida);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all, refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: ['webhooks', 'list'] });
      // The PUT answers no `desativacao` or `circuito`: keep the ones read until the refetch brings the new ones.
      const desativacao = body.ativo ? null : config.desativacao;
      queryClient.setQueryData<LoadedWebhook>(webhookKeys.detail(config.id), {
        config: { ...body, desativacao, circuito: config.circuito },
        etag: headers.get('etag') ?? '',
      });
      void queryClient.invalidateQueries({ queryKey: webhookKeys.detail(config.id) });
    },
    onError: (error) => {
      if (error instanceof ApiProblem && error.status === 412) return setConflict(true);
      showRefusedFields(error, setError, { focus: true });
    },
  });

  const saveError =
    save.error && !(save.error instanceof ApiProblem && (save.error.status === 412 || save.error.status === 400)) ? save.error : undefined;
  const urlError = formState.errors.url?.message;
  const rootError = formState.errors.root?.server?.message;

  const reload = () => {
    if (confirmDiscard(t('webhook.reloadConfirm'))) onReload();
  };

  return (
    <FormProvider {...form}>
      <BackToList onNavigate={leaveUnlessKept} />
      <Form
        id={'configuracao' satisfies EditorSectionId}
        onSubmit={handleSubmit((values) => save.mutate(values))}
        noValidate
        className="flex scroll-mt-16 flex-col gap-5"
      >
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">{t('webhook.editTitle')}</h1>
          <p className="font-mono text-sm break-all text-slate-600">{config.url}</p>
        </div>

        {readOnly ? <Alert tone="info">{t('portal.readOnlyNotice')}</Alert> : null}
        {recoveryOffer && !readOnly ? <RecoveryOffer id={config.id} offer={recoveryOffer} /> : null}
        {conflict ? (
          <Alert
            tone="warning"
            role="alert"
            title={t('webhook.conflictTitle')}
            actions={
              <Button variant="secondary" size="sm" onClick={reload} disabled={reloading}>
                {t('webhook.reload')}
              </Button>
            }
          >
            {t('webhook.conflictBody')}
          </Alert>
        ) : null}
        {saveError ? (
          <Alert tone="danger" role="alert">
            {t('webhook.saveFailed')} <ProblemMessage error={saveError} />
          </Alert>
        ) : null}
        {rootError ? (
          <Alert tone="danger" role="alert">
            {rootError}
          </Alert>
        ) : null}

        {identity}

        {/* A read-only portal session sees every field, and can change none. */}
        <fieldset disabled={readOnly} className="contents">
          <Card title={t('webhook.receiver')} titleId="url-title">
            <DestinationKindPicker />
            <UrlField error={urlError} policy={urlPolicy} />
            <BrokerCredentialsFields stored={config.credenciais} />
            <ContactEmailField awaitingConfirmation={config.emailContato !== null && !config.emailContatoConfirmado} />
          </Card>

          {/* In the page's own chunk, not lazy: a Suspense boundary in a page this size is sent apart
              from the form (React outlines it) and shown after the first paint, so the stored headers
              would appear late and move the form. */}
          <DeliveryStateCard config={config} />
          <HeadersEditor />
          {events}
        </fieldset>

        {readOnly ? null : (
          <div className="sticky bottom-0 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-lg sm:border">
            {Object.keys(formState.errors).length > 0 ? (
              <p className="w-full text-sm text-red-700 sm:mr-auto sm:w-auto">{t('common.fieldErrors')}</p>
            ) : null}
            {/* The operator's configuration follows OPERATIONAL_WEBHOOK_URL: a delete would not stick (the API refuses it). */}
            {config.usuarioId === OPERATOR_TENANT ? <span className="mr-auto" /> : <DeleteWebhookButton id={config.id} />}
            <Link href={home} onClick={leaveUnlessKept} className={buttonClasses('secondary')}>
              {t('common.cancel')}
            </Link>
            <Button type="submit" disabled={save.isPending || conflict}>
              {save.isPending ? t('common.saving') : t('common.save')}
            </Button>
          </div>
        )}
      </Form>
    </FormProvider>
  );
}
