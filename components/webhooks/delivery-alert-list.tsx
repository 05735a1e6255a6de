import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import type { Locale } from '@/lib/i18n/locale';
import type { Translate } from '@/lib/i18n/translate';
import type { DeliveryAlert } from '@/lib/webhooks/delivery/health-contract';

/**
 * The open-alert notice's body, the same in the server's first HTML (delivery-alerts-notice.tsx)
 * and in the browser's paged notice that takes its place (delivery-alerts.tsx): each incident with
 * a link to its configuration, then what the caller puts below (the range, or the pager). No hooks:
 * each side hands over its own translator.
 */
export function DeliveryAlertList({
  alerts,
  t,
  locale,
  footer,
}: {
  alerts: DeliveryAlert[];
  t: Translate;
  locale: Locale;
  footer: ReactNode;
}) {
  return (
    <Alert tone="danger" title={t('alerts.title')} className="mb-6">
      <ul className="flex flex-col gap-1" data-testid="delivery-alerts">
        {alerts.map((alert) => (
          <li key={alert.id} data-alert-for={alert.configuracaoId}>
            {t(`alerts.${alert.tipo}`, { url: alert.url, since: brasiliaDateTime(alert.desde, locale) })}{' '}
            <Link href={`/webhooks/${alert.configuracaoId}`} className="font-medium underline">
              {t('alerts.open')}
            </Link>
          </li>
        ))}
      </ul>
      {footer}
    </Alert>
  );
}
