'use client';
import { useState } from 'react';
import { Link } from '@/components/ui/link';
import { Alert } from '@/components/ui/alert';
import { Pager } from '@/components/ui/pager';
import { useDeliveryAlerts } from '@/lib/client/delivery-queries';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { useLocale, useT } from '@/lib/i18n/client';
import { ALERTS_PAGE_SIZE } from '@/lib/webhooks/delivery/fields';

/**
 * The console's notice of delivery incidents (issue 20 §4), on every webhooks page while they last:
 * a receiver switched off by the worker, or down for too long. A few at a time, worst first (each
 * tenant's worst before any tenant's second, issue 27), paged. Nothing at all when there is none.
 */
export function DeliveryAlerts() {
  const t = useT();
  const locale = useLocale();
  const [page, setPage] = useState(1);
  const alerts = useDeliveryAlerts(page);
  const total = alerts.data?.total ?? 0;
  if (total === 0) return null;
  // Incidents ended while the reader was on a later page: back to the last page that has some.
  const lastPage = Math.ceil(total / ALERTS_PAGE_SIZE);
  if (page > lastPage) {
    setPage(lastPage);
    return null;
  }
  return (
    <Alert tone="danger" title={t('alerts.title')} className="mb-6">
      <ul className="flex flex-col gap-1" data-testid="delivery-alerts">
        {alerts.data?.itens.map((alert) => (
          <li key={alert.id} data-alert-for={alert.configuracaoId}>
            {t(`alerts.${alert.tipo}`, { url: alert.url, since: brasiliaDateTime(alert.desde, locale) })}{' '}
            <Link href={`/webhooks/${alert.configuracaoId}`} className="font-medium underline">
              {t('alerts.open')}
            </Link>
          </li>
        ))}
      </ul>
      <div className="mt-3">
        <Pager
          page={page}
          pageSize={ALERTS_PAGE_SIZE}
          total={total}
          range={(first, last) => t('alerts.range', { first, last, total })}
          labels={{ nav: t('alerts.pages'), previous: t('pager.previous'), next: t('pager.next') }}
          onPage={setPage}
        />
      </div>
    </Alert>
  );
}
