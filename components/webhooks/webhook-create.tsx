'use client';
import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useMemo, type ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormProvider, useForm, WithFormLibrary } from '@/components/ui/form-library';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useToast } from '@/components/ui/toast';
import { ProblemMessage } from '@/components/console/problem-message';
import { apiJson } from '@/lib/client/api';
import { contractResolver, isFieldRefusal, showRefusedFields, withFieldChecks } from '@/lib/client/form-errors';
import type { Translate } from '@/lib/i18n/translate';
import type { FieldError } from '@/lib/validation/issues';
import { webhookKeys } from '@/lib/client/webhook-queries';
import { apiPath, createWebhookConfiguration } from '@/lib/api/routes';
import { useMessages, useT } from '@/lib/i18n/client';
import type { UrlPolicy, WebhookView } from '@/lib/webhooks/configurations/contract';
import { WEBHOOK_EVENT_FLAGS, type WebhookEventFlag } from '@/lib/webhooks/events/types';
import { HeadersEditor } from './headers-editor';
import { UrlField } from './url-field';
import { BrokerCredentialsFields, credentialsBody, DestinationKindPicker } from './destination-kind';
import type { WebhookFormValues } from './webhook-form-values';
import { Form } from '@/components/ui/form';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * A new configuration (staff): the tenant it belongs to, then the editor's own sections (receiver,
 * headers, events) validated with the same contract as the POST.
 */
type CreateFormValues = WebhookFormValues & { usuarioId: string; sistemaOrigem: string; clientId: string };

const EMPTY: CreateFormValues = {
  usuarioId: '',
  sistemaOrigem: '',
  clientId: '',
  url: 'https://',
  credenciais: { usuario: '', senha: '' },
  headers: [],
  ativo: true,
  ...(Object.fromEntries(WEBHOOK_EVENT_FLAGS.map((flag) => [flag, false])) as Record<WebhookEventFlag, boolean>),
};

/** The form's strings as the POST body: a number for sistemaOrigem, nothing for a field left empty. */
function toBody({ usuarioId, sistemaOrigem, clientId, credenciais, ...rest }: CreateFormValues) {
  const login = credentialsBody(rest.url, credenciais);
  return {
    ...rest,
    ...(login ? { credenciais: login } : {}),
    usuarioId: usuarioId.trim() || undefined,
    sistemaOrigem: sistemaOrigem.trim() === '' ? undefined : Number(sistemaOrigem),
    clientId: clientId.trim() || undefined,
  };
}

/** Staff must name the tenant (the POST answers the same, as 400 naming the field). */
function tenantRequired(t: Translate) {
  return (values: CreateFormValues): FieldError[] =>
    (['usuarioId', 'sistemaOrigem'] as const)
      .filter((field) => values[field].trim() === '')
      .map((field) => ({ field, pointer: `/${field}`, code: 'required', message: t('validation.required') }));
}

/**
 * `events` is the server's EventToggles card, shown in place inside the form. react-hook-form
 * arrives after hydration (form-library.tsx); until then the same form, not ready yet.
 */
export function WebhookCreate(props: { urlPolicy: UrlPolicy; events: ReactNode }) {
  return (
    <WithFormLibrary>
      <CreateForm {...props} />
    </WithFormLibrary>
  );
}

function CreateForm({ urlPolicy, events }: { urlPolicy: UrlPolicy; events: ReactNode }) {
  const t = useT();
  const api = useApiCaller();
  const messages = useMessages();
  const toast = useToast();
  const router = useRouter();
  const queryClient = useQueryClient();
  // The POST's own schema under the server's URL policy.
  const resolver = useMemo(
    () =>
      withFieldChecks(
        contractResolver(
          () => import('@/lib/webhooks/configurations/contract').then((contract) => contract.webhookCreateSchemaFor(urlPolicy)),
          messages,
          toBody,
        ),
        tenantRequired(t),
      ),
    [messages, t, urlPolicy],
  );
  const form = useForm<CreateFormValues>({ defaultValues: EMPTY, resolver, mode: 'onChange' });
  const { register, handleSubmit, formState, setError } = form;
  const create = useMutation({
    mutationFn: (values: CreateFormValues) =>
      apiJson<WebhookView>(api, apiPath(createWebhookConfiguration), {
        method: 'POST',
        body: JSON.stringify(toBody(values)),
      }),
    onSuccess: ({ body }) => {
      toast(t('webhook.created'));
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      router.push(`/webhooks/${body.id}`);
    },
    onError: (error) => void showRefusedFields(error, setError, { focus: true }),
  });
  const errors = formState.errors;
  const tenantField = (name: 'usuarioId' | 'sistemaOrigem' | 'clientId', help: string, optional = false) => (
    <Field id={name} label={name} mono description={help} error={errors[name]?.message} badge={optional ? t('common.optional') : undefined}>
      <Input
        id={name}
        className="font-mono"
        inputMode={name === 'sistemaOrigem' ? 'numeric' : undefined}
        autoComplete="off"
        spellCheck={false}
        invalid={Boolean(errors[name])}
        aria-describedby={describedBy(name, { description: true, error: Boolean(errors[name]) })}
        {...register(name)}
      />
    </Field>
  );
  const unexpected = create.error && !isFieldRefusal(create.error) ? create.error : undefined;

  return (
    <FormProvider {...form}>
      <Form onSubmit={handleSubmit((values) => create.mutate(values))} noValidate className="flex flex-col gap-5">
        <div>
          <Link href="/webhooks" className="text-sm text-slate-700 hover:underline">
            ← {t('webhook.backToList')}
          </Link>
          <h1 className="mt-3 text-2xl font-semibold tracking-tight">{t('webhook.createTitle')}</h1>
        </div>
        {unexpected ? (
          <Alert tone="danger" role="alert">
            <ProblemMessage error={unexpected} />
          </Alert>
        ) : null}
        <Card title={t('webhook.tenant')} titleId="tenant-title" description={t('webhook.tenantHelp')}>
          <div className="grid gap-4 sm:grid-cols-3">
            {tenantField('usuarioId', t('webhook.usuarioIdHelp'))}
            {tenantField('sistemaOrigem', t('webhook.sistemaOrigemHelp'))}
            {tenantField('clientId', t('webhook.clientIdHelp'), true)}
          </div>
        </Card>
        <Card title={t('webhook.receiver')} titleId="url-title">
          <DestinationKindPicker />
          <UrlField error={errors.url?.message} policy={urlPolicy} />
          <BrokerCredentialsFields />
        </Card>
        <HeadersEditor />
        {events}
        <div className="sticky bottom-0 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-lg sm:border">
          {Object.keys(errors).length > 0 ? (
            <p className="w-full text-sm text-red-700 sm:mr-auto sm:w-auto">{t('common.fieldErrors')}</p>
          ) : null}
          <Link href="/webhooks" className={buttonClasses('secondary')}>
            {t('common.cancel')}
          </Link>
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? t('common.saving') : t('webhook.create')}
          </Button>
        </div>
      </Form>
    </FormProvider>
  );
}
