'use client';
import { useEffect, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { apiPath, openPortalSession } from '@/lib/api/routes';
import { useLocale, useT } from '@/lib/i18n/client';
import { PORTAL_PATH } from '@/lib/portal/cookie';
import { API_BASES, apiUrl } from '@/lib/client/api';

type State = 'opening' | 'refused' | 'failed' | 'no-link' | 'ended' | 'signed-out';
/** Why the entry page was sent to without a link: the session ended, or the partner signed out. */
export type EntryNotice = 'ended' | 'signed-out' | undefined;

/** Opens the session with the fragment's token (once: the token leaves the address bar first), then the portal. */
export function PortalEntry({ notice }: { notice: EntryNotice }) {
  const t = useT();
  const locale = useLocale();
  const [state, setState] = useState<State>('opening');
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = window.location.hash.slice(1);
    // The token is spent by this request: it never stays in the history or a bookmark.
    if (token) window.history.replaceState(null, '', window.location.pathname + window.location.search);
    const outcome: Promise<State> = token
      ? fetch(apiUrl(API_BASES.portal, apiPath(openPortalSession)), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': locale },
          body: JSON.stringify({ token }),
          credentials: 'same-origin',
        }).then((response): State => {
          if (response.status !== 201) return response.status === 404 || response.status === 400 ? 'refused' : 'failed';
          window.location.replace(PORTAL_PATH);
          return 'opening';
        })
      : Promise.resolve(notice ?? 'no-link');
    void outcome.catch((): State => 'failed').then(setState);
  }, [notice, locale]);

  if (state === 'opening') return <Spinner label={t('portal.entry.opening')} />;
  const message = {
    refused: t('portal.entry.refused'),
    failed: t('portal.entry.failed'),
    'no-link': t('portal.entry.noLink'),
    ended: t('portal.entry.ended'),
    'signed-out': t('portal.entry.signedOut'),
  }[state];
  return (
    <Alert tone={state === 'failed' ? 'danger' : state === 'signed-out' ? 'info' : 'warning'} role="alert" className="mt-4">
      {message}
    </Alert>
  );
}
