'use client';
import { signInWithProvider } from '@/lib/client/auth-requests';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useT } from '@/lib/i18n/client';

/**
 * Starts the OpenID Connect sign-in: next-auth answers the provider's authorization URL (with the
 * PKCE challenge, state and nonce it keeps in cookies) and the browser goes there.
 */
export function SsoSignInButton({
  providerId,
  name,
  returnTo,
  primary,
}: {
  providerId: string;
  name: string;
  returnTo?: string;
  primary: boolean;
}) {
  const t = useT();
  const [pending, setPending] = useState(false);
  return (
    <Button
      type="button"
      variant={primary ? 'primary' : 'secondary'}
      className="w-full"
      disabled={pending}
      onClick={() => {
        setPending(true);
        signInWithProvider(providerId, returnTo ?? '/').catch(() => setPending(false));
      }}
    >
      {t('signIn.ssoButton', { name })}
    </Button>
  );
}
