'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ProblemMessage } from '@/components/console/problem-message';
import { apiPath, createApiClient, listApiClients, revokeApiClient, rotateApiClientSecret } from '@/lib/api/routes';
import type { ApiClientView, ApiClientWithSecret } from '@/lib/api-clients/contract';
import { REVOCATION_DELAY_SECONDS } from '@/lib/auth/revocation-delay';
import { KNOWN_SCOPES } from '@/lib/auth/scopes';
import { apiJson } from '@/lib/client/api';
import { contractResolver, isFieldRefusal, showRefusedFields } from '@/lib/client/form-errors';
import { randomUuidV4 } from '@/lib/client/random-uuid';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { adminKeys } from '@/lib/client/admin-query-keys';
import { useLocale, useMessages, useT } from '@/lib/i18n/client';
import { Form } from '@/components/ui/form';
import { useForm, WithFormLibrary } from '@/components/ui/form-library';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * API clients for staff admins: the list (state, scopes, last token), a new client, and per client
 * "rotate secret" and "revoke" after a confirmation. A secret appears once, in the answer that
 * made it, with a copy button; it cannot be shown again.
 */
const KEY = adminKeys.apiClients;

type FormValues = { clientId: string; nome: string; usuarioId: string; sistemaOrigem: string; escopos: string[] };
type TextField = 'clientId' | 'nome' | 'usuarioId' | 'sistemaOrigem';

const NEW_CLIENT: FormValues = { clientId: '', nome: '', usuarioId: '', sistemaOrigem: '', escopos: ['webhooks', 'scheduling'] };

function toBody(values: FormValues) {
  return { ...values, sistemaOrigem: values.sistemaOrigem.trim() === '' ? undefined : Number(values.sistemaOrigem) };
}

export function ApiClientsAdmin() {
  const t = useT();
  const api = useApiCaller();
  const [revealed, setRevealed] = useState<ApiClientWithSecret | undefined>();
  const clients = useQuery({
    queryKey: KEY,
    queryFn: async () => (await apiJson<ApiClientView[]>(api, apiPath(listApiClients))).body,
  });
  return (
    <div className="flex flex-col gap-5">
      {revealed ? (
        <Alert tone="warning" role="status" title={t('apiClients.secretTitle', { clientId: revealed.clientId })}>
          <p>{t('apiClients.secretOnce')}</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="rounded bg-white px-2 py-1 font-mono text-sm break-all" data-testid="client-secret">
              {revealed.clientSecret}
            </code>
            <CopyButton value={revealed.clientSecret} label={t('common.copy')} copiedLabel={t('common.copied')} />
          </div>
        </Alert>
      ) : null}
      {/* react-hook-form arrives after hydration (form-library.tsx); until then the same form, not ready yet. */}
      <WithFormLibrary>
        <NewClientForm onCreated={setRevealed} />
      </WithFormLibrary>
      <Card title={t('apiClients.listTitle')} titleId="clients-title">
        {clients.isError ? <ProblemMessage error={clients.error} /> : null}
        <ul className="divide-y divide-slate-200" data-testid="api-client-list">
          {clients.data?.map((client) => (
            <ClientRow key={client.clientId} client={client} onSecret={setRevealed} />
          ))}
        </ul>
      </Card>
    </div>
  );
}

function ClientRow({ client, onSecret }: { client: ApiClientView; onSecret: (value: ApiClientWithSecret) => void }) {
  const t = useT();
  const locale = useLocale();
  const api = useApiCaller();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const rotate = useMutation({
    mutationFn: async () =>
      (
        await apiJson<ApiClientWithSecret>(api, apiPath(rotateApiClientSecret, { clientId: client.clientId }), {
          method: 'POST',
        })
      ).body,
    onSuccess: (value) => {
      onSecret(value);
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: () => apiJson(api, apiPath(revokeApiClient, { clientId: client.clientId }), { method: 'POST' }),
    onSuccess: refresh,
  });
  const revoked = client.revogadoEm !== null;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3" data-client-id={client.clientId}>
      <div className="min-w-0 flex-1 basis-64">
        <p className="font-mono text-sm font-medium text-slate-900">
          {client.clientId}{' '}
          {revoked ? (
            <Badge tone="danger" className="font-sans">
              {t('apiClients.revoked')}
            </Badge>
          ) : null}
        </p>
        <p className="text-sm text-slate-700">{client.nome}</p>
        <p className="font-mono text-xs break-all text-slate-600">
          {client.usuarioId} · {client.sistemaOrigem} · {client.escopos.join(' ')}
        </p>
        <p className="text-xs text-slate-600">
          {client.ultimoTokenEm
            ? t('apiClients.lastToken', { when: brasiliaDateTime(client.ultimoTokenEm, locale) })
            : t('apiClients.neverToken')}
        </p>
      </div>
      {revoked ? null : (
        <div className="flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={rotate.isPending}
            onClick={() => window.confirm(t('apiClients.rotateConfirm', { clientId: client.clientId })) && rotate.mutate()}
          >
            {t('apiClients.rotate')}
          </Button>
          <Button
            variant="danger"
            size="sm"
            disabled={revoke.isPending}
            onClick={() =>
              window.confirm(t('apiClients.revokeConfirm', { clientId: client.clientId, seconds: REVOCATION_DELAY_SECONDS })) &&
              revoke.mutate()
            }
          >
            {t('apiClients.revoke')}
          </Button>
        </div>
      )}
      {(rotate.error ?? revoke.error) ? <ProblemMessage error={rotate.error ?? revoke.error} /> : null}
    </li>
  );
}

function NewClientForm({ onCreated }: { onCreated: (value: ApiClientWithSecret) => void }) {
  const t = useT();
  const api = useApiCaller();
  const messages = useMessages();
  const queryClient = useQueryClient();
  const form = useForm<FormValues>({
    defaultValues: NEW_CLIENT,
    resolver: contractResolver(
      () => import('@/lib/api-clients/contract').then((contract) => contract.apiClientCreateSchema),
      messages,
      toBody,
    ),
  });
  const { register, handleSubmit, formState, setError, reset, setValue } = form;
  const create = useMutation({
    mutationFn: async (values: FormValues) =>
      (
        await apiJson<ApiClientWithSecret>(api, apiPath(createApiClient), {
          method: 'POST',
          body: JSON.stringify(toBody(values)),
        })
      ).body,
    onSuccess: (value) => {
      onCreated(value);
      reset();
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (error) => void showRefusedFields(error, setError),
  });
  const errors = formState.errors;
  // Each field by what it is, its API name beside it, and the format the server expects.
  const text = (name: TextField, extra?: ReactNode) => {
    const id = `client-${name}`;
    return (
      <Field
        id={id}
        label={
          <>
            {t(`apiClients.field.${name}`)} <span className="font-mono text-[0.8125rem] font-normal text-slate-600">({name})</span>
          </>
        }
        description={t(`apiClients.field.${name}Help`)}
        error={errors[name]?.message}
      >
        <div className="flex gap-2">
          <Input
            id={id}
            // Identifiers in monospace, as the list shows them; the name is plain text.
            className={name === 'nome' ? undefined : 'font-mono'}
            autoComplete="off"
            spellCheck={false}
            inputMode={name === 'sistemaOrigem' ? 'numeric' : undefined}
            invalid={Boolean(errors[name])}
            aria-describedby={describedBy(id, { description: true, error: Boolean(errors[name]) })}
            {...register(name)}
          />
          {extra}
        </div>
      </Field>
    );
  };
  const unexpected = create.error && !isFieldRefusal(create.error) ? create.error : undefined;
  return (
    <Card title={t('apiClients.newTitle')} titleId="new-client-title" description={t('apiClients.newHelp')}>
      <Form onSubmit={handleSubmit((values) => create.mutate(values))} noValidate className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          {text('clientId')}
          {text('nome')}
          {text(
            'usuarioId',
            // A new tenant has no usuarioId yet: a random UUID v4 is one nobody else holds.
            <Button variant="secondary" onClick={() => setValue('usuarioId', randomUuidV4(), { shouldValidate: true, shouldDirty: true })}>
              {t('apiClients.generate')}
              <span className="sr-only"> {t('apiClients.generateWhat')}</span>
            </Button>,
          )}
          {text('sistemaOrigem')}
        </div>
        <fieldset aria-describedby="client-escopos-description">
          <legend className="text-sm font-medium text-slate-900">
            {t('apiClients.field.escopos')} <span className="font-mono text-[0.8125rem] font-normal text-slate-600">(escopos)</span>
          </legend>
          <p id="client-escopos-description" className="text-xs leading-snug text-slate-600">
            {t('apiClients.field.escoposHelp')}
          </p>
          <div className="mt-1 flex flex-wrap gap-4">
            {KNOWN_SCOPES.map((scope) => (
              <label key={scope} className="flex items-center gap-2 font-mono text-sm">
                {/* Checked in the server's HTML as the form starts (register alone checks it once hydrated). */}
                <input type="checkbox" value={scope} defaultChecked={NEW_CLIENT.escopos.includes(scope)} {...register('escopos')} />
                {scope}
              </label>
            ))}
          </div>
          {errors.escopos ? <p className="mt-1 text-xs font-medium text-red-700">{errors.escopos.message}</p> : null}
        </fieldset>
        {unexpected ? <ProblemMessage error={unexpected} /> : null}
        <div>
          <Button type="submit" disabled={create.isPending}>
            {t('apiClients.create')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
