import { Card } from '@/components/ui/card';
import { getT } from '@/lib/i18n/server';
import type { WebhookDetail } from '@/lib/webhooks/configurations/contract';

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
            ['webhook.id', config.id, true],
            ['webhook.usuarioId', config.usuarioId, true],
            ['webhook.sistemaOrigem', String(config.sistemaOrigem), false],
            ['webhook.clientId', config.clientId ?? '—', false],
          ] as const
        ).map(([label, value, uuid]) => (
          <div key={label} className="min-w-0">
            <dt className="font-mono text-xs text-slate-600">{t(label)}</dt>
            {/* A UUID stays on one line (smaller on a phone, where it would otherwise break mid-string). */}
            <dd className={uuid ? 'font-mono text-xs whitespace-nowrap text-slate-900 sm:text-sm' : 'font-mono break-all text-slate-900'}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
