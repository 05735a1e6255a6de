'use client';
import type { EditorSectionId } from '@/components/webhooks/editor-sections';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { Switch } from '@/components/ui/switch';
import { ProblemMessage } from '@/components/console/problem-message';
import { apiFetch, apiJson, ApiProblem, readProblem } from '@/lib/client/api';
import { apiPath, issuePortalLink, listPortalAccess, revokePortalLink, revokePortalSession } from '@/lib/api/routes';
import { useLocale, useT } from '@/lib/i18n/client';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import type { PortalAccess, PortalLink } from '@/lib/portal/contract';
import { useApiCaller } from '@/lib/client/api-base';

/**
 * Staff's view of a tenant's partner portal (issue 30), on its configuration's page: issue a
 * single-use link (read-only or not) to hand to the partner, and the links not yet opened and the
 * sessions still open, each revocable.
 */
export function PortalAccessCard({ usuarioId, sistemaOrigem }: { usuarioId: string; sistemaOrigem: number }) {
  const t = useT();
  const locale = useLocale();
  const api = useApiCaller();
  const queryClient = useQueryClient();
  const [readOnly, setReadOnly] = useState(false);
  const [issued, setIssued] = useState<PortalLink | undefined>();
  const queryKey = ['portal', 'access', usuarioId];
  const access = useQuery({
    queryKey,
    queryFn: async () => (await apiJson<PortalAccess>(api, `${apiPath(listPortalAccess)}?${new URLSearchParams({ usuarioId })}`)).body,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const issue = useMutation({
    mutationFn: async () =>
      (
        await apiJson<PortalLink>(api, apiPath(issuePortalLink), {
          method: 'POST',
          body: JSON.stringify({ usuarioId, sistemaOrigem, somenteLeitura: readOnly }),
        })
      ).body,
    onSuccess: (link) => {
      setIssued(link);
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: async (path: string) => {
      const response = await apiFetch(api, path, { method: 'DELETE' });
      if (!response.ok) throw new ApiProblem(await readProblem(response));
    },
    onSuccess: () => refresh(),
  });
  const when = (iso: string) => brasiliaDateTime(iso, locale);

  return (
    <Card
      id={'portal' satisfies EditorSectionId}
      title={t('portalAdmin.title')}
      titleId="portal-access-title"
      description={t('portalAdmin.help')}
      className="mt-8"
    >
      <div className="flex flex-wrap items-center gap-4">
        <div className="flex items-center gap-2">
          <Switch id="portal-read-only" checked={readOnly} onChange={(event) => setReadOnly(event.target.checked)} />
          <label htmlFor="portal-read-only" className="text-sm font-medium text-slate-900">
            {t('portalAdmin.readOnly')}
          </label>
        </div>
        <Button variant="secondary" size="sm" onClick={() => issue.mutate()} disabled={issue.isPending}>
          {t('portalAdmin.issue')}
        </Button>
      </div>
      {issue.error ? <ProblemMessage error={issue.error} /> : null}
      <div role="status" aria-live="polite" className="mt-3 empty:mt-0">
        {issued ? (
          <div className="flex flex-col gap-2 rounded-md border border-emerald-200 bg-emerald-50 p-3">
            <p className="text-sm text-emerald-900">{t('portalAdmin.issued', { when: when(issued.expiraEm) })}</p>
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor="portal-link-url" className="sr-only">
                {t('portalAdmin.linkLabel')}
              </label>
              <input
                id="portal-link-url"
                readOnly
                value={issued.url}
                className="h-9 min-w-0 flex-1 rounded border border-slate-300 bg-white px-2 font-mono text-xs text-slate-900"
              />
              <CopyButton value={issued.url} label={t('common.copy')} copiedLabel={t('common.copied')} />
            </div>
          </div>
        ) : null}
      </div>
      {access.error ? <ProblemMessage error={access.error} /> : null}
      {revoke.error ? <ProblemMessage error={revoke.error} /> : null}
      {access.data ? (
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <section aria-labelledby="portal-links-title">
            <h3 id="portal-links-title" className="mb-2 text-sm font-semibold text-slate-900">
              {t('portalAdmin.links')}
            </h3>
            {access.data.links.length === 0 ? <p className="text-sm text-slate-600">{t('portalAdmin.noLinks')}</p> : null}
            <ul className="flex flex-col gap-2" data-testid="portal-links">
              {access.data.links.map((link) => (
                <li key={link.id} className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                  <span className="min-w-0 flex-1">
                    {t('portalAdmin.linkItem', { when: when(link.expiraEm), by: link.emitidoPor })}
                    {link.somenteLeitura ? ` · ${t('portalAdmin.readOnly')}` : ''}
                  </span>
                  <Button
                    variant="danger"
                    size="sm"
                    aria-label={t('portalAdmin.revokeLink', { when: when(link.expiraEm) })}
                    onClick={() => revoke.mutate(apiPath(revokePortalLink, { linkId: link.id }))}
                  >
                    {t('portalAdmin.revoke')}
                  </Button>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="portal-sessions-title">
            <h3 id="portal-sessions-title" className="mb-2 text-sm font-semibold text-slate-900">
              {t('portalAdmin.sessions')}
            </h3>
            {access.data.sessoes.length === 0 ? <p className="text-sm text-slate-600">{t('portalAdmin.noSessions')}</p> : null}
            <ul className="flex flex-col gap-2" data-testid="portal-sessions">
              {access.data.sessoes.map((session) => (
                <li key={session.id} className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
                  <span className="min-w-0 flex-1">
                    {t('portalAdmin.sessionItem', { since: when(session.criadoEm), when: when(session.expiraEm) })}
                    {session.somenteLeitura ? ` · ${t('portalAdmin.readOnly')}` : ''}
                  </span>
                  <Button
                    variant="danger"
                    size="sm"
                    aria-label={t('portalAdmin.revokeSession', { since: when(session.criadoEm) })}
                    onClick={() => revoke.mutate(apiPath(revokePortalSession, { sessaoId: session.id }))}
                  >
                    {t('portalAdmin.revoke')}
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        </div>
      ) : null}
    </Card>
  );
}
