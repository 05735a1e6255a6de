'use client';
import type { ReactNode } from 'react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { staticRegister, useEnhancement } from '@/components/ui/enhancement';
import { Field, describedBy } from '@/components/ui/field';
import { Form } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { ProblemMessage } from '@/components/console/problem-message';
import type { ApiClientWithSecret } from '@/lib/api-clients/contract';
import { KNOWN_SCOPES } from '@/lib/auth/scopes';
import { useT } from '@/lib/i18n/client';

/** The new-client form's values, as its inputs hold them. */
export type NewClientValues = { clientId: string; nome: string; usuarioId: string; sistemaOrigem: string; escopos: string[] };
type TextField = 'clientId' | 'nome' | 'usuarioId' | 'sistemaOrigem';

export const NEW_CLIENT_DEFAULTS: NewClientValues = {
  clientId: '',
  nome: '',
  usuarioId: '',
  sistemaOrigem: '',
  escopos: ['webhooks', 'scheduling'],
};

type ViewProps = {
  register: UseFormRegister<NewClientValues>;
  errors: FieldErrors<NewClientValues>;
  /** False until the live form (new-client-form-live.tsx) has replaced this markup's static copy. */
  ready: boolean;
  pending?: boolean;
  unexpected?: unknown;
  onSubmit?: (event: React.FormEvent<HTMLFormElement>) => void;
  onGenerate?: () => void;
};

/**
 * A new API client: the form, its react-hook-form code loaded after hydration (enhancement.ts).
 * Until then the same markup, disabled as "not ready yet".
 */
export function NewClientForm({ onCreated }: { onCreated: (value: ApiClientWithSecret) => void }) {
  const { loaded, failed } = useEnhancement(() => import('./new-client-form-live'));
  if (loaded) return <loaded.LiveNewClientForm onCreated={onCreated} />;
  return (
    <NewClientFormView
      register={staticRegister(NEW_CLIENT_DEFAULTS)}
      errors={{}}
      ready={false}
      unexpected={failed ? new Error('form code did not load') : undefined}
    />
  );
}

/** The form's markup, shared by its static and live versions: each field by what it is, its API name beside it. */
export function NewClientFormView({ register, errors, ready, pending = false, unexpected, onSubmit, onGenerate }: ViewProps) {
  const t = useT();
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
  return (
    <Card title={t('apiClients.newTitle')} titleId="new-client-title" description={t('apiClients.newHelp')}>
      <Form onSubmit={onSubmit ?? ((event) => event.preventDefault())} ready={ready} noValidate className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          {text('clientId')}
          {text('nome')}
          {text(
            'usuarioId',
            // A new tenant has no usuarioId yet: a random UUID v4 is one nobody else holds.
            <Button variant="secondary" onClick={onGenerate}>
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
                <input
                  type="checkbox"
                  value={scope}
                  defaultChecked={NEW_CLIENT_DEFAULTS.escopos.includes(scope)}
                  {...register('escopos')}
                />
                {scope}
              </label>
            ))}
          </div>
          {errors.escopos ? <p className="mt-1 text-xs font-medium text-red-700">{errors.escopos.message}</p> : null}
        </fieldset>
        {unexpected ? <ProblemMessage error={unexpected} /> : null}
        <div>
          <Button type="submit" disabled={pending}>
            {t('apiClients.create')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
