'use client';
import { Link } from '@/components/ui/link';
import { Alert } from '@/components/ui/alert';
import { useDeliveryAlerts } from '@/lib/client/delivery-queries';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { useLocale, useT } from '@/lib/i18n/client';

/**
 * The console's notice of delivery incidents (issue 20 §4), on every webhooks page while they last:
 * a receiver switched off by the worker, or down for too long. Nothing at all when there is none.
 */
export function DeliveryAlerts() {
  const t = useT();
  const locale = useLocale();
  const alerts = useDeliveryAlerts();
  if (!alerts.data || alerts.data.length === 0) return null;
  return (
    <Alert tone="danger" title={t('alerts.title')} className="mb-6">
      <ul className="flex flex-col gap-1" data-testid="delivery-alerts">
        {alerts.data.map((alert) => (
          <li key={alert.id}>
            {t(`alerts.${alert.tipo}`, { url: alert.url, since: brasiliaDateTime(alert.desde, locale) })}{' '}
            <Link href={`/webhooks/${alert.configuracaoId}`} className="font-medium underline">
              {t('alerts.open')}
            </Link>
          </li>
        ))}
      </ul>
    </Alert>
  );
}
