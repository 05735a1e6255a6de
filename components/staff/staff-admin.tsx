'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useToast } from '@/components/ui/toast';
import { ProblemMessage } from '@/components/console/problem-message';
import { apiPath, createStaff, listStaff, resetStaffPassword, updateStaff } from '@/lib/api/routes';
import { STAFF_ROLES, type StaffRole } from '@/lib/config/staff-roles';
import { ApiProblem, apiJson } from '@/lib/client/api';
import { contractResolver, isFieldRefusal, showRefusedFields } from '@/lib/client/form-errors';
import { adminKeys } from '@/lib/client/admin-query-keys';
import { useMessages, useT } from '@/lib/i18n/client';
import type { PasswordLink, StaffUpdate, StaffView } from '@/lib/staff/contract';
import { selfChangeRefusal } from '@/lib/staff/self-change';
import { Form } from '@/components/ui/form';
import { useForm, WithFormLibrary } from '@/components/ui/form-library';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * Staff accounts for admins: the list, a new account (answering a one-time link to hand over),
 * roles (ticked, then saved), disabling after a confirmation, and a new password link. An admin's
 * own row offers neither removing their admin role nor disabling it, which the server refuses
 * (selfChangeRefusal), and says why.
 */
const KEY = adminKeys.staff;

type Revealed = { email: string; link: PasswordLink };

export function StaffAdmin({ currentUserId }: { currentUserId: string }) {
  const t = useT();
  const api = useApiCaller();
  const [revealed, setRevealed] = useState<Revealed | undefined>();
  const staff = useQuery({ queryKey: KEY, queryFn: async () => (await apiJson<StaffView[]>(api, apiPath(listStaff))).body });
  return (
    <div className="flex flex-col gap-5">
      {revealed ? <LinkNotice email={revealed.email} link={revealed.link} /> : null}
      {/* react-hook-form arrives after hydration (form-library.tsx); until then the same form, not ready yet. */}
      <WithFormLibrary>
        <NewStaffForm onCreated={setRevealed} />
      </WithFormLibrary>
      <Card title={t('staffAdmin.listTitle')} titleId="staff-title" description={t('staffAdmin.newLinkHelp')}>
        {staff.isError ? <ProblemMessage error={staff.error} /> : null}
        <ul className="divide-y divide-slate-200" data-testid="staff-list">
          {staff.data?.map((user) => (
            // Keyed by the saved roles too: once they change, the row's boxes start from them.
            <StaffRow key={`${user.id}:${user.perfis.join()}`} user={user} self={user.id === currentUserId} onLink={setRevealed} />
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

function StaffRow({ user, self, onLink }: { user: StaffView; self: boolean; onLink: (value: Revealed) => void }) {
  const t = useT();
  const api = useApiCaller();
  const toast = useToast();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const put = (change: StaffUpdate) => apiJson(api, apiPath(updateStaff, { id: user.id }), { method: 'PUT', body: JSON.stringify(change) });
  const [roles, setRoles] = useState<readonly StaffRole[]>(user.perfis);
  const saveRoles = useMutation({
    mutationFn: (perfis: StaffRole[]) => put({ perfis }),
    onSuccess: () => {
      toast(t('staffAdmin.rolesSaved', { email: user.email }));
      void refresh();
    },
  });
  const setActive = useMutation({
    mutationFn: (ativo: boolean) => put({ ativo }),
    onSuccess: (_, ativo) => {
      toast(t(ativo ? 'staffAdmin.enabledSaved' : 'staffAdmin.disabledSaved', { email: user.email }));
      void refresh();
    },
  });
  const reset = useMutation({
    mutationFn: async () => (await apiJson<PasswordLink>(api, apiPath(resetStaffPassword, { id: user.id }), { method: 'POST' })).body,
    onSuccess: (link) => onLink({ email: user.email, link }),
  });
  const rolesChanged = STAFF_ROLES.some((role) => roles.includes(role) !== user.perfis.includes(role));
  const toggle = (role: StaffRole) => setRoles(roles.includes(role) ? roles.filter((r) => r !== role) : [...roles, role]);
  // On the admin's own row, what the server would refuse is not offered, and the row says why.
  const untickRefusal = (role: StaffRole) =>
    self && roles.includes(role) ? selfChangeRefusal({ perfis: roles.filter((r) => r !== role) }) : undefined;
  const lockReason = STAFF_ROLES.map(untickRefusal).find(Boolean);
  const mayDisable = !(self && selfChangeRefusal({ ativo: false }));
  const ids = { lock: `staff-${user.id}-lock`, link: `staff-${user.id}-link` };
  const error = saveRoles.error ?? setActive.error ?? reset.error;
  const fieldMessage = error instanceof ApiProblem ? error.problem.errors?.[0]?.message : undefined;
  return (
    <li className="flex flex-col gap-2 py-3" data-staff-email={user.email}>
      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 basis-48">
          <p className="text-sm font-medium text-slate-900">
            {user.nome}{' '}
            {self ? (
              <Badge tone="info" className="ml-1">
                {t('staffAdmin.you')}
              </Badge>
            ) : null}
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
          <p className="font-mono text-xs break-all text-slate-600">{user.email}</p>
        </div>
        <Form
          onSubmit={(event) => {
            event.preventDefault();
            saveRoles.mutate([...roles]);
          }}
          className="flex flex-wrap items-center gap-x-3 gap-y-2"
        >
          <fieldset className="flex flex-wrap gap-x-3 gap-y-1">
            <legend className="sr-only">{t('staffAdmin.rolesOf', { email: user.email })}</legend>
            {STAFF_ROLES.map((role) => {
              const locked = untickRefusal(role) !== undefined;
              return (
                <label key={role} className="flex items-center gap-1 text-sm">
                  <input
                    type="checkbox"
                    checked={roles.includes(role)}
                    onChange={() => toggle(role)}
                    disabled={saveRoles.isPending || locked}
                    aria-describedby={locked ? ids.lock : undefined}
                  />
                  {t(`role.${role}`)}
                </label>
              );
            })}
          </fieldset>
          {rolesChanged ? (
            <span className="flex gap-2">
              <Button type="submit" size="sm" disabled={saveRoles.isPending}>
                {t('staffAdmin.saveRoles')}
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setRoles(user.perfis)} disabled={saveRoles.isPending}>
                {t('staffAdmin.undoRoles')}
              </Button>
            </span>
          ) : null}
        </Form>
        <div className="flex flex-wrap gap-2">
          {user.sso ? null : (
            <Button
              variant="secondary"
              size="sm"
              onClick={() => reset.mutate()}
              disabled={reset.isPending}
              aria-describedby={user.ativo ? undefined : ids.link}
            >
              {t('staffAdmin.newLink')}
            </Button>
          )}
          {!user.ativo ? (
            <Button variant="secondary" size="sm" onClick={() => setActive.mutate(true)} disabled={setActive.isPending}>
              {t('staffAdmin.enable')}
            </Button>
          ) : mayDisable ? (
            <Button
              variant="danger"
              size="sm"
              onClick={() => window.confirm(t('staffAdmin.disableConfirm', { email: user.email })) && setActive.mutate(false)}
              disabled={setActive.isPending}
            >
              {t('staffAdmin.disable')}
            </Button>
          ) : null}
        </div>
      </div>
      {lockReason ? (
        <p id={ids.lock} className="text-xs text-slate-600">
          {t(`validation.code.${lockReason.code}`)}
        </p>
      ) : null}
      {user.ativo || user.sso ? null : (
        <p id={ids.link} className="text-xs text-slate-600">
          {t('staffAdmin.newLinkDisabled')}
        </p>
      )}
      {error ? (
        <p className="text-sm text-red-700" role="alert">
          {fieldMessage ?? <ProblemMessage error={error} />}
        </p>
      ) : null}
    </li>
  );
}

type FormValues = { email: string; nome: string; perfis: StaffRole[] };
const NEW_STAFF: FormValues = { email: '', nome: '', perfis: ['scheduling'] };

function NewStaffForm({ onCreated }: { onCreated: (value: Revealed) => void }) {
  const t = useT();
  const api = useApiCaller();
  const messages = useMessages();
  const queryClient = useQueryClient();
  const form = useForm<FormValues>({
    defaultValues: NEW_STAFF,
    resolver: contractResolver(() => import('@/lib/staff/contract').then((contract) => contract.staffCreateSchema), messages),
  });
  const { register, handleSubmit, formState, setError, reset } = form;
  const create = useMutation({
    mutationFn: async (values: FormValues) =>
      (
        await apiJson<StaffView & { definicaoSenha: PasswordLink }>(api, apiPath(createStaff), {
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
                {/* Checked in the server's HTML as the form starts (register alone checks it once hydrated). */}
                <input type="checkbox" value={role} defaultChecked={NEW_STAFF.perfis.includes(role)} {...register('perfis')} />
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
