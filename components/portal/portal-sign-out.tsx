'use client';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { apiFetch, markSigningOut } from '@/lib/client/api';
import { apiPath, closePortalSession } from '@/lib/api/routes';
import { useT } from '@/lib/i18n/client';
import { PORTAL_PATH } from '@/lib/portal/cookie';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * Signing out of the portal: the server ends the session (its cookie opens nothing after, even a
 * copy), then the entry page says so. Where the request fails the session stays, and so does the page.
 */
export function PortalSignOut() {
  const t = useT();
  const api = useApiCaller();
  const [failed, setFailed] = useState(false);
  const [pending, setPending] = useState(false);
  const signOut = async () => {
    setPending(true);
    setFailed(false);
    markSigningOut();
    const response = await apiFetch(api, apiPath(closePortalSession), { method: 'DELETE' }).catch(() => undefined);
    if (response?.status === 204) return window.location.replace(`${PORTAL_PATH}/entrar?saiu=1`);
    setPending(false);
    setFailed(true);
  };
  return (
    <span className="flex items-center gap-2">
      {failed ? (
        <span role="alert" className="text-xs text-red-700">
          {t('portal.signOutFailed')}
        </span>
      ) : null}
      <Button variant="secondary" size="sm" onClick={() => void signOut()} disabled={pending}>
        {t('portal.signOut')}
      </Button>
    </span>
  );
}
