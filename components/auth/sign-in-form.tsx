'use client';
import { signInWithPassword } from '@/lib/client/auth-requests';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useT } from '@/lib/i18n/client';
import type { MessageKey } from '@/lib/i18n';
import { formText } from '@/components/ui/form-text';
import { Form } from '@/components/ui/form';

/** next-auth's `error` values and what the form says about them. */
const ERROR_MESSAGES: Record<string, MessageKey> = { CredentialsSignin: 'signIn.invalid', locked: 'signIn.locked' };

/** E-mail or password, with the "Informe…" message when it was left empty. */
function CredentialField({
  id,
  label,
  missing,
  ...input
}: {
  id: 'email' | 'password';
  label: string;
  missing?: MessageKey;
  type: 'email' | 'password';
  autoComplete: string;
  autoFocus?: boolean;
}) {
  const t = useT();
  return (
    <Field id={id} label={label} error={missing && t(missing)}>
      <Input
        id={id}
        name={id}
        required
        invalid={Boolean(missing)}
        aria-describedby={describedBy(id, { error: Boolean(missing) })}
        {...input}
      />
    </Field>
  );
}

type Missing = { email?: MessageKey; password?: MessageKey };

/** Empty fields are named before anything is sent: "wrong e-mail or password" would mislead. */
function missingFields(email: string, password: string): Missing {
  return {
    ...(email.trim() === '' ? { email: 'signIn.emailRequired' as const } : {}),
    ...(password === '' ? { password: 'signIn.passwordRequired' as const } : {}),
  };
}

export function SignInForm({ returnTo, notice }: { returnTo?: string; notice?: string }) {
  const t = useT();
  const [error, setError] = useState<MessageKey | undefined>();
  const [missing, setMissing] = useState<Missing>({});
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = formText(form, 'email');
    const password = formText(form, 'password');
    const empty = missingFields(email, password);
    setMissing(empty);
    setError(undefined);
    if (empty.email || empty.password) {
      document.getElementById(empty.email ? 'email' : 'password')?.focus();
      return;
    }
    setPending(true);
    try {
      // Navigation stays in our hands, so sign-in works on whatever host the browser used.
      const error = await signInWithPassword(email, password);
      if (error === null) {
        window.location.assign(returnTo ?? '/');
        return;
      }
      setError(ERROR_MESSAGES[error] ?? 'signIn.failed');
    } catch {
      setError('signIn.failed');
    }
    setPending(false);
  }

  return (
    <Form onSubmit={handleSubmit} className="flex flex-col gap-4" noValidate>
      {notice && !error ? (
        <Alert tone="info" role="status">
          {notice}
        </Alert>
      ) : null}
      {error ? (
        <Alert tone="danger" role="alert">
          {t(error)}
        </Alert>
      ) : null}
      <CredentialField id="email" type="email" autoComplete="username" label={t('signIn.email')} missing={missing.email} autoFocus />
      <CredentialField
        id="password"
        type="password"
        autoComplete="current-password"
        label={t('signIn.password')}
        missing={missing.password}
      />
      <Button type="submit" disabled={pending} className="mt-1 w-full">
        {pending ? t('signIn.submitting') : t('signIn.submit')}
      </Button>
    </Form>
  );
}
