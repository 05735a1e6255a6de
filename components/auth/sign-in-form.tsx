'use client';
import { signIn } from 'next-auth/react';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, describedBy } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useT } from '@/lib/i18n/client';
import type { MessageKey } from '@/lib/i18n';

/** next-auth's `error` values and what the form says about them. */
const ERROR_MESSAGES: Record<string, MessageKey> = { CredentialsSignin: 'signIn.invalid', locked: 'signIn.locked' };

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
    const email = String(form.get('email') ?? '');
    const password = String(form.get('password') ?? '');
    const empty = missingFields(email, password);
    setMissing(empty);
    setError(undefined);
    if (empty.email || empty.password) {
      document.getElementById(empty.email ? 'email' : 'password')?.focus();
      return;
    }
    setPending(true);
    try {
      // redirect:false keeps navigation in our hands, so sign-in works on whatever host the browser used.
      const result = await signIn('credentials', { email, password, redirect: false });
      if (result?.ok && !result.error) {
        window.location.assign(returnTo ?? '/');
        return;
      }
      setError(ERROR_MESSAGES[result?.error ?? ''] ?? 'signIn.failed');
    } catch {
      setError('signIn.failed');
    }
    setPending(false);
  }

  return (
    <form onSubmit={handleSubmit} className="flex flex-col gap-4" noValidate>
      {notice && !error ? <Alert tone="info" role="status">{notice}</Alert> : null}
      {error ? (
        <Alert tone="danger" role="alert">
          {t(error)}
        </Alert>
      ) : null}
      <Field id="email" label={t('signIn.email')} error={missing.email && t(missing.email)}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          invalid={Boolean(missing.email)}
          aria-describedby={describedBy('email', { error: Boolean(missing.email) })}
        />
      </Field>
      <Field id="password" label={t('signIn.password')} error={missing.password && t(missing.password)}>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          invalid={Boolean(missing.password)}
          aria-describedby={describedBy('password', { error: Boolean(missing.password) })}
        />
      </Field>
      <Button type="submit" disabled={pending} className="mt-1 w-full">
        {pending ? t('signIn.submitting') : t('signIn.submit')}
      </Button>
    </form>
  );
}
