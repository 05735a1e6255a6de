import { getLocale, getT } from '@/lib/i18n/server';
import type { AlertPage } from '@/lib/webhooks/delivery/health-contract';
import { DeliveryAlertList } from './delivery-alert-list';

/**
 * The open-alert notice as the server renders it into the page's first HTML, from the same answer
 * the browser's notice (delivery-alerts.tsx) then starts from: it is there from the first paint, not
 * after the page has loaded. Its pager comes with the browser's notice, which takes its place once
 * the page has hydrated; until then the range says how many there are.
 */
export async function DeliveryAlertsNotice({ page }: { page: AlertPage | undefined }) {
  if (!page || page.total === 0) return null;
  const [t, locale] = await Promise.all([getT(), getLocale()]);
  const last = Math.min(page.total, page.limite);
  return (
    <DeliveryAlertList
      alerts={page.itens}
      t={t}
      locale={locale}
      footer={page.total > last ? <p className="mt-3 text-sm">{t('alerts.range', { first: 1, last, total: page.total })}</p> : null}
    />
  );
}
