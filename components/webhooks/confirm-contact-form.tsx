'use client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { confirmContactEmail } from '@/lib/api/routes';
import { useLinkRequest } from '@/components/auth/use-link-request';
import { useT } from '@/lib/i18n/client';

/**
 * Confirms a technical contact with its link's token (issue 43), on a press of the button only.
 */
export function ConfirmContactForm({ token }: { token: string }) {
  const t = useT();
  const { state, problem, send } = useLinkRequest(confirmContactEmail);
  if (state.status === 'done') {
    return (
      <Alert tone="success" role="status">
        {t('contact.confirmed')}
      </Alert>
    );
  }
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
      <Button onClick={() => void send({ token })} disabled={state.status === 'pending' || !token}>
        {t('contact.confirm')}
      </Button>
    </div>
  );
}
