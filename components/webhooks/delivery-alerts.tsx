'use client';
import { useState } from 'react';
import { Pager } from '@/components/ui/pager';
import { useDeliveryAlerts } from '@/lib/client/delivery-queries';
import { useLocale, useT } from '@/lib/i18n/client';
import { ALERTS_PAGE_SIZE } from '@/lib/webhooks/delivery/fields';
import { DeliveryAlertList } from './delivery-alert-list';

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
    <DeliveryAlertList
      alerts={alerts.data?.itens ?? []}
      t={t}
      locale={locale}
      footer={
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
      }
    />
  );
}
