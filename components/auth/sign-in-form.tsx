'use client';
import { signIn } from 'next-auth/react';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useT } from '@/lib/i18n/client';
import type { MessageKey } from '@/lib/i18n';

/** next-auth's `error` values and what the form says about them. */
const ERROR_MESSAGES: Record<string, MessageKey> = { CredentialsSignin: 'signIn.invalid', locked: 'signIn.locked' };

export function SignInForm({ returnTo, notice }: { returnTo?: string; notice?: string }) {
  const t = useT();
  const [error, setError] = useState<MessageKey | undefined>();
  const [pending, setPending] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    try {
      // redirect:false keeps navigation in our hands, so sign-in works on whatever host the browser used.
      const result = await signIn('credentials', {
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
        redirect: false,
      });
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
      <Field id="email" label={t('signIn.email')}>
        <Input id="email" name="email" type="email" autoComplete="username" required autoFocus />
      </Field>
      <Field id="password" label={t('signIn.password')}>
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <Button type="submit" disabled={pending} className="mt-1 w-full">
        {pending ? t('signIn.submitting') : t('signIn.submit')}
      </Button>
    </form>
  );
}
