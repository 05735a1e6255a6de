'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { ProblemMessage } from '@/components/console/problem-message';
import { apiPath, routes } from '@/lib/api/routes';
import { STAFF_ROLES, type StaffRole } from '@/lib/auth/roles';
import { ApiProblem, apiJson } from '@/lib/client/api';
import { contractResolver, isFieldRefusal, showRefusedFields } from '@/lib/client/form-errors';
import { useLocale, useMessages, useT } from '@/lib/i18n/client';
import type { PasswordLink, StaffView } from '@/lib/staff/contract';
import { Form } from '@/components/ui/form';

/**
 * Staff accounts for admins: the list, a new account (answering a one-time link to hand over),
 * roles, disabling and a new password link. The server refuses an admin removing their own admin
 * role or disabling themselves, and says so under the row.
 */
const KEY = ['admin', 'staff'] as const;

type Revealed = { email: string; link: PasswordLink };

export function StaffAdmin() {
  const t = useT();
  const locale = useLocale();
  const [revealed, setRevealed] = useState<Revealed | undefined>();
  const staff = useQuery({ queryKey: KEY, queryFn: async () => (await apiJson<StaffView[]>(locale, apiPath(routes.listStaff))).body });
  return (
    <div className="flex flex-col gap-5">
      {revealed ? <LinkNotice email={revealed.email} link={revealed.link} /> : null}
      <NewStaffForm onCreated={setRevealed} />
      <Card title={t('staffAdmin.listTitle')} titleId="staff-title">
        {staff.isError ? <ProblemMessage error={staff.error} /> : null}
        <ul className="divide-y divide-slate-200" data-testid="staff-list">
          {staff.data?.map((user) => (
            <StaffRow key={user.id} user={user} onLink={setRevealed} />
          ))}
        </ul>
      </Card>
    </div>
  );
}

/** Where the one-time link went: e-mailed (nothing to hand over), or shown once to hand over. */
function LinkNotice({ email, link }: Revealed) {
  const t = useT();
  if (link.entrega === 'email' || !link.link) {
    return (
      <Alert tone="success" role="status" title={t('staffAdmin.linkEmailedTitle', { email })}>
        <p>{t('staffAdmin.linkEmailedHelp')}</p>
      </Alert>
    );
  }
  return (
    <Alert tone="warning" role="status" title={t('staffAdmin.linkTitle', { email })}>
      {link.emailFalhou ? <p className="font-medium">{t('staffAdmin.linkMailFailed')}</p> : null}
      <p>{t('staffAdmin.linkHelp')}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="rounded bg-white px-2 py-1 font-mono text-xs break-all" data-testid="password-link">
          {link.link}
        </code>
        <CopyButton value={link.link} label={t('common.copy')} copiedLabel={t('common.copied')} />
      </div>
    </Alert>
  );
}

function StaffRow({ user, onLink }: { user: StaffView; onLink: (value: Revealed) => void }) {
  const t = useT();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const update = useMutation({
    mutationFn: (change: { perfis?: StaffRole[]; ativo?: boolean }) =>
      apiJson(locale, apiPath(routes.updateStaff, { id: user.id }), { method: 'PUT', body: JSON.stringify(change) }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
  const reset = useMutation({
    mutationFn: async () =>
      (await apiJson<PasswordLink>(locale, apiPath(routes.resetStaffPassword, { id: user.id }), { method: 'POST' })).body,
    onSuccess: (link) => onLink({ email: user.email, link }),
  });
  const toggleRole = (role: StaffRole) =>
    update.mutate({ perfis: user.perfis.includes(role) ? user.perfis.filter((r) => r !== role) : [...user.perfis, role] });
  const error = update.error ?? reset.error;
  const fieldMessage = error instanceof ApiProblem ? error.problem.errors?.[0]?.message : undefined;
  return (
    <li className="flex flex-col gap-2 py-3" data-staff-email={user.email}>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-slate-900">
            {user.nome}{' '}
            {user.ativo ? null : (
              <Badge tone="danger" className="ml-1">
                {t('staffAdmin.disabled')}
              </Badge>
            )}
            {user.sso ? (
              <Badge tone="info" className="ml-1">
                SSO
              </Badge>
            ) : null}
          </p>
          <p className="font-mono text-xs text-slate-600">{user.email}</p>
        </div>
        <fieldset className="flex gap-3">
          <legend className="sr-only">{t('staffAdmin.rolesOf', { email: user.email })}</legend>
          {STAFF_ROLES.map((role) => (
            <label key={role} className="flex items-center gap-1 text-sm">
              <input type="checkbox" checked={user.perfis.includes(role)} onChange={() => toggleRole(role)} disabled={update.isPending} />
              {t(`role.${role}`)}
            </label>
          ))}
        </fieldset>
        <div className="flex gap-2">
          {user.sso ? null : (
            <Button variant="secondary" size="sm" onClick={() => reset.mutate()} disabled={reset.isPending}>
              {t('staffAdmin.newLink')}
            </Button>
          )}
          <Button
            variant={user.ativo ? 'danger' : 'secondary'}
            size="sm"
            onClick={() => update.mutate({ ativo: !user.ativo })}
            disabled={update.isPending}
          >
            {user.ativo ? t('staffAdmin.disable') : t('staffAdmin.enable')}
          </Button>
        </div>
      </div>
      {error ? (
        <p className="text-sm text-red-700" role="alert">
          {fieldMessage ?? <ProblemMessage error={error} />}
        </p>
      ) : null}
    </li>
  );
}

type FormValues = { email: string; nome: string; perfis: StaffRole[] };

function NewStaffForm({ onCreated }: { onCreated: (value: Revealed) => void }) {
  const t = useT();
  const locale = useLocale();
  const messages = useMessages();
  const queryClient = useQueryClient();
  const form = useForm<FormValues>({
    defaultValues: { email: '', nome: '', perfis: ['scheduling'] },
    resolver: contractResolver(() => import('@/lib/staff/contract').then((contract) => contract.staffCreateSchema), messages),
  });
  const { register, handleSubmit, formState, setError, reset } = form;
  const create = useMutation({
    mutationFn: async (values: FormValues) =>
      (
        await apiJson<StaffView & { definicaoSenha: PasswordLink }>(locale, apiPath(routes.createStaff), {
          method: 'POST',
          body: JSON.stringify(values),
        })
      ).body,
    onSuccess: (created) => {
      onCreated({ email: created.email, link: created.definicaoSenha });
      reset();
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (error) => void showRefusedFields(error, setError),
  });
  const errors = formState.errors;
  const unexpected = create.error && !isFieldRefusal(create.error) ? create.error : undefined;
  return (
    <Card title={t('staffAdmin.newTitle')} titleId="new-staff-title" description={t('staffAdmin.newHelp')}>
      <Form onSubmit={handleSubmit((values) => create.mutate(values))} noValidate className="flex flex-col gap-4">
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
                <input type="checkbox" value={role} {...register('perfis')} />
                {t(`role.${role}`)}
              </label>
            ))}
          </div>
          {errors.perfis ? <p className="mt-1 text-xs font-medium text-red-700">{errors.perfis.message}</p> : null}
        </fieldset>
        {unexpected ? <ProblemMessage error={unexpected} /> : null}
        <div>
          <Button type="submit" disabled={create.isPending}>
            {t('staffAdmin.create')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
