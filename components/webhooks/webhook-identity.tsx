import { Card } from '@/components/ui/card';
import { getT } from '@/lib/i18n/server';
import type { WebhookDetail } from '@/lib/webhooks/contract';

/**
 * Whose configuration this is: its id, tenant and API client, which no save changes. A server
 * component, handed to the editor's form by the page.
 */
export async function WebhookIdentity({ config }: { config: Pick<WebhookDetail, 'id' | 'usuarioId' | 'sistemaOrigem' | 'clientId'> }) {
  const t = await getT();
  return (
    <Card title={t('webhook.identity')} titleId="identity-title">
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        {(
          [
            ['webhook.id', config.id],
            ['webhook.usuarioId', config.usuarioId],
            ['webhook.sistemaOrigem', String(config.sistemaOrigem)],
            ['webhook.clientId', config.clientId ?? '—'],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="font-mono text-xs text-slate-600">{t(label)}</dt>
            <dd className="font-mono break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
