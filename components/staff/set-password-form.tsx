'use client';
import { Link } from '@/components/ui/link';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { formText } from '@/components/ui/form-text';
import { setPasswordWithLink } from '@/lib/api/routes';
import { useLinkRequest } from '@/components/auth/use-link-request';
import { useT } from '@/lib/i18n/client';
import { Form } from '@/components/ui/form';

/**
 * Sets the password a one-time link allows; the server's rules answer field by field. The inputs
 * are not controlled, so what a password manager filled in is read at submit, not lost.
 */
export function SetPasswordForm({ token }: { token: string }) {
  const t = useT();
  const [mismatch, setMismatch] = useState(false);
  const { state, problem, send } = useLinkRequest(setPasswordWithLink);
  const submit = (password: string) => send({ token, senha: password });
  if (state.status === 'done') {
    return (
      <Alert tone="success" role="status" title={t('password.setDone')}>
        <Link href="/sign-in" className="font-medium underline">
          {t('password.goSignIn')}
        </Link>
      </Alert>
    );
  }
  const errorOf = (field: string) => problem?.errors?.find((error) => error.field === field)?.message;
  const passwordError = errorOf('senha');
  const tokenError = errorOf('token') ?? (token ? undefined : t('validation.code.passwordLinkInvalid'));
  return (
    <Form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const password = formText(data, 'password');
        const matches = password === formText(data, 'confirmation');
        setMismatch(!matches);
        if (matches) void submit(password);
      }}
    >
      {tokenError ? (
        <Alert tone="danger" role="alert">
          {tokenError}
        </Alert>
      ) : null}
      <Field id="new-password" label={t('password.new')} error={passwordError}>
        <Input
          id="new-password"
          type="password"
          autoComplete="new-password"
          name="password"
          invalid={Boolean(passwordError)}
          aria-describedby={describedBy('new-password', { error: Boolean(passwordError) })}
        />
      </Field>
      <Field id="confirm-password" label={t('password.confirm')} error={mismatch ? t('password.mismatch') : undefined}>
        <Input
          id="confirm-password"
          type="password"
          autoComplete="new-password"
          name="confirmation"
          invalid={mismatch}
          aria-describedby={describedBy('confirm-password', { error: mismatch })}
        />
      </Field>
      <Button type="submit" disabled={state.status === 'pending' || !token}>
        {t('password.save')}
      </Button>
    </Form>
  );
}
