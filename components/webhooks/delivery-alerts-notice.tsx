import { Alert } from '@/components/ui/alert';
import { Link } from '@/components/ui/link';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { getLocale, getT } from '@/lib/i18n/server';
import type { AlertPage } from '@/lib/webhooks/delivery/health-contract';

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
    <Alert tone="danger" title={t('alerts.title')} className="mb-6">
      <ul className="flex flex-col gap-1" data-testid="delivery-alerts">
        {page.itens.map((alert) => (
          <li key={alert.id} data-alert-for={alert.configuracaoId}>
            {t(`alerts.${alert.tipo}`, { url: alert.url, since: brasiliaDateTime(alert.desde, locale) })}{' '}
            <Link href={`/webhooks/${alert.configuracaoId}`} className="font-medium underline">
              {t('alerts.open')}
            </Link>
          </li>
        ))}
      </ul>
      {page.total > last ? <p className="mt-3 text-sm">{t('alerts.range', { first: 1, last, total: page.total })}</p> : null}
    </Alert>
  );
}
