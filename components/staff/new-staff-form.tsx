'use client';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { staticRegister, useEnhancement } from '@/components/ui/enhancement';
import { Field, describedBy } from '@/components/ui/field';
import { Form } from '@/components/ui/form';
import { Input } from '@/components/ui/input';
import { ProblemMessage } from '@/components/console/problem-message';
import { STAFF_ROLES, type StaffRole } from '@/lib/auth/roles';
import { useT } from '@/lib/i18n/client';
import type { PasswordLink } from '@/lib/staff/contract';

/** A one-time password link to show the admin: a new account's, or a new link for an existing one. */
export type Revealed = { email: string; link: PasswordLink };

/** The new-account form's values, as its inputs hold them. */
export type NewStaffValues = { email: string; nome: string; perfis: StaffRole[] };

export const NEW_STAFF_DEFAULTS: NewStaffValues = { email: '', nome: '', perfis: ['scheduling'] };

type ViewProps = {
  register: UseFormRegister<NewStaffValues>;
  errors: FieldErrors<NewStaffValues>;
  /** False until the live form (new-staff-form-live.tsx) has replaced this markup's static copy. */
  ready: boolean;
  pending?: boolean;
  unexpected?: unknown;
  onSubmit?: (event: React.FormEvent<HTMLFormElement>) => void;
};

/**
 * A new staff account: the form, its react-hook-form code loaded after hydration (enhancement.ts).
 * Until then the same markup, disabled as "not ready yet".
 */
export function NewStaffForm({ onCreated }: { onCreated: (value: Revealed) => void }) {
  const { loaded, failed } = useEnhancement(() => import('./new-staff-form-live'));
  if (loaded) return <loaded.LiveNewStaffForm onCreated={onCreated} />;
  return (
    <NewStaffFormView
      register={staticRegister(NEW_STAFF_DEFAULTS)}
      errors={{}}
      ready={false}
      unexpected={failed ? new Error('form code did not load') : undefined}
    />
  );
}

/** The form's markup, shared by its static and live versions. */
export function NewStaffFormView({ register, errors, ready, pending = false, unexpected, onSubmit }: ViewProps) {
  const t = useT();
  return (
    <Card title={t('staffAdmin.newTitle')} titleId="new-staff-title" description={t('staffAdmin.newHelp')}>
      <Form onSubmit={onSubmit ?? ((event) => event.preventDefault())} ready={ready} noValidate className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="staff-email" label={t('staffAdmin.email')} error={errors.email?.message}>
            <Input
              id="staff-email"
              type="email"
              autoComplete="off"
              invalid={Boolean(errors.email)}
              aria-describedby={describedBy('staff-email', { error: Boolean(errors.email) })}
              {...register('email')}
            />
          </Field>
          <Field id="staff-name" label={t('staffAdmin.name')} error={errors.nome?.message}>
            <Input
              id="staff-name"
              autoComplete="off"
              invalid={Boolean(errors.nome)}
              aria-describedby={describedBy('staff-name', { error: Boolean(errors.nome) })}
              {...register('nome')}
            />
          </Field>
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-slate-900">{t('staffAdmin.roles')}</legend>
          <div className="mt-1 flex flex-wrap gap-4">
            {STAFF_ROLES.map((role) => (
              <label key={role} className="flex items-center gap-2 text-sm">
                <input type="checkbox" value={role} defaultChecked={NEW_STAFF_DEFAULTS.perfis.includes(role)} {...register('perfis')} />
                {t(`role.${role}`)}
              </label>
            ))}
          </div>
          {errors.perfis ? <p className="mt-1 text-xs font-medium text-red-700">{errors.perfis.message}</p> : null}
        </fieldset>
        {unexpected ? <ProblemMessage error={unexpected} /> : null}
        <div>
          <Button type="submit" disabled={pending}>
            {t('staffAdmin.create')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
