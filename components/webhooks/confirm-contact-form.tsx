'use client';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { apiPath, confirmContactEmail } from '@/lib/api/routes';
import { ApiProblem, apiFetch, readProblem } from '@/lib/client/api';
import { useT } from '@/lib/i18n/client';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * Confirms a technical contact with its link's token (issue 43), on a press of the button only.
 * Plain state, not TanStack Query: this public page lives outside the console's providers.
 */
export function ConfirmContactForm({ token }: { token: string }) {
  const t = useT();
  const api = useApiCaller();
  const [state, setState] = useState<{ status: 'idle' | 'pending' | 'done' } | { status: 'failed'; error: unknown }>({ status: 'idle' });
  async function confirm() {
    setState({ status: 'pending' });
    try {
      const response = await apiFetch(api, apiPath(confirmContactEmail), { method: 'POST', body: JSON.stringify({ token }) });
      if (!response.ok) throw new ApiProblem(await readProblem(response));
      setState({ status: 'done' });
    } catch (error) {
      setState({ status: 'failed', error });
    }
  }
  if (state.status === 'done') {
    return (
      <Alert tone="success" role="status">
        {t('contact.confirmed')}
      </Alert>
    );
  }
  const problem = state.status === 'failed' && state.error instanceof ApiProblem ? state.error.problem : undefined;
  const tokenError =
    problem?.errors?.find((error) => error.field === 'token')?.message ??
    (token ? (problem?.detail ?? undefined) : t('validation.code.contactLinkInvalid'));
  return (
    <div className="flex flex-col gap-4">
      {tokenError ? (
        <Alert tone="danger" role="alert">
          {tokenError}
        </Alert>
      ) : null}
      <Button onClick={() => void confirm()} disabled={state.status === 'pending' || !token}>
        {t('contact.confirm')}
      </Button>
    </div>
  );
}
