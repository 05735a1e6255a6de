'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { ProblemMessage } from '@/components/console/problem-message';
import { apiPath, listApiClients, revokeApiClient, rotateApiClientSecret } from '@/lib/api/routes';
import type { ApiClientView, ApiClientWithSecret } from '@/lib/api-clients/contract';
import { REVOCATION_DELAY_SECONDS } from '@/lib/api-clients/revocation';
import { apiJson } from '@/lib/client/api';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { adminKeys } from '@/lib/client/admin-query-keys';
import { useLocale, useT } from '@/lib/i18n/client';
import { NewClientForm } from './new-client-form';

/**
 * API clients for staff admins: the list (state, scopes, last token), a new client, and per client
 * "rotate secret" and "revoke" after a confirmation. A secret appears once, in the answer that
 * made it, with a copy button; it cannot be shown again.
 */
const KEY = adminKeys.apiClients;

export function ApiClientsAdmin() {
  const t = useT();
  const locale = useLocale();
  const [revealed, setRevealed] = useState<ApiClientWithSecret | undefined>();
  const clients = useQuery({
    queryKey: KEY,
    queryFn: async () => (await apiJson<ApiClientView[]>(locale, apiPath(listApiClients))).body,
  });
  return (
    <div className="flex flex-col gap-5">
      {revealed ? (
        <Alert tone="warning" role="status" title={t('apiClients.secretTitle', { clientId: revealed.clientId })}>
          <p>{t('apiClients.secretOnce')}</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code className="rounded bg-white px-2 py-1 font-mono text-sm break-all" data-testid="client-secret">
              {revealed.clientSecret}
            </code>
            <CopyButton value={revealed.clientSecret} label={t('common.copy')} copiedLabel={t('common.copied')} />
          </div>
        </Alert>
      ) : null}
      <NewClientForm onCreated={setRevealed} />
      <Card title={t('apiClients.listTitle')} titleId="clients-title">
        {clients.isError ? <ProblemMessage error={clients.error} /> : null}
        <ul className="divide-y divide-slate-200" data-testid="api-client-list">
          {clients.data?.map((client) => (
            <ClientRow key={client.clientId} client={client} onSecret={setRevealed} />
          ))}
        </ul>
      </Card>
    </div>
  );
}

function ClientRow({ client, onSecret }: { client: ApiClientView; onSecret: (value: ApiClientWithSecret) => void }) {
  const t = useT();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: KEY });
  const rotate = useMutation({
    mutationFn: async () =>
      (
        await apiJson<ApiClientWithSecret>(locale, apiPath(rotateApiClientSecret, { clientId: client.clientId }), {
          method: 'POST',
        })
      ).body,
    onSuccess: (value) => {
      onSecret(value);
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: () => apiJson(locale, apiPath(revokeApiClient, { clientId: client.clientId }), { method: 'POST' }),
    onSuccess: refresh,
  });
  const revoked = client.revogadoEm !== null;
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3" data-client-id={client.clientId}>
      <div className="min-w-0 flex-1 basis-64">
        <p className="font-mono text-sm font-medium text-slate-900">
          {client.clientId}{' '}
          {revoked ? (
            <Badge tone="danger" className="font-sans">
              {t('apiClients.revoked')}
            </Badge>
          ) : null}
        </p>
        <p className="text-sm text-slate-700">{client.nome}</p>
        <p className="font-mono text-xs break-all text-slate-600">
          {client.usuarioId} · {client.sistemaOrigem} · {client.escopos.join(' ')}
        </p>
        <p className="text-xs text-slate-600">
          {client.ultimoTokenEm
            ? t('apiClients.lastToken', { when: brasiliaDateTime(client.ultimoTokenEm, locale) })
            : t('apiClients.neverToken')}
        </p>
      </div>
      {revoked ? null : (
        <div className="flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            disabled={rotate.isPending}
            onClick={() => window.confirm(t('apiClients.rotateConfirm', { clientId: client.clientId })) && rotate.mutate()}
          >
            {t('apiClients.rotate')}
          </Button>
          <Button
            variant="danger"
            size="sm"
            disabled={revoke.isPending}
            onClick={() =>
              window.confirm(t('apiClients.revokeConfirm', { clientId: client.clientId, seconds: REVOCATION_DELAY_SECONDS })) &&
              revoke.mutate()
            }
          >
            {t('apiClients.revoke')}
          </Button>
        </div>
      )}
      {(rotate.error ?? revoke.error) ? <ProblemMessage error={rotate.error ?? revoke.error} /> : null}
    </li>
  );
}
