'use client';
import { Link } from '@/components/ui/link';
import { buttonClasses } from '@/components/ui/button';
import { Sparkline } from '@/components/ui/sparkline';
import { QueryError } from '@/components/console/query-status';
import { Pager } from '@/components/ui/pager';
import { Spinner } from '@/components/ui/spinner';
import { Badge } from '@/components/ui/badge';
import { useDeliveryTriage } from '@/lib/client/delivery-queries';
import { TRIAGE_PAGE_SIZE } from '@/lib/webhooks/delivery/fields';
import { useLocale, useT } from '@/lib/i18n/client';
import type { TriageItem } from '@/lib/webhooks/delivery/health-contract';
import { formatRate, HealthSituation } from './health-situation';

/**
 * Every configuration's delivery health, worst first (the server orders and pages them: an open
 * alert first, each tenant's worst before any tenant's second), for staff looking after many
 * partners. The page is in the address (`?pagina=`).
 */
export function DeliveryTriage({ page }: { page: number }) {
  const t = useT();
  const triage = useDeliveryTriage(page);
  if (triage.isPending) return <Spinner label={t('common.loading')} />;
  if (triage.isError) return <QueryError query={triage} />;
  const { itens, total } = triage.data;
  if (total === 0) return <p className="text-sm text-slate-600">{t('triage.empty')}</p>;
  const pager = (nav: string) => (
    <Pager
      page={page}
      pageSize={TRIAGE_PAGE_SIZE}
      total={total}
      range={(first, last) => t('triage.range', { first, last, total })}
      labels={{ nav, previous: t('pager.previous'), next: t('pager.next') }}
      href={(to) => (to === 1 ? '/webhooks/saude' : `/webhooks/saude?pagina=${to}`)}
    />
  );
  return (
    <div aria-live="polite" className="flex flex-col gap-3">
      <p className="text-sm text-slate-600">{t('webhooks.count', { count: total })}</p>
      {pager(t('triage.pages'))}
      {itens.length === 0 ? (
        <p className="text-sm text-slate-600">{t('pager.beyond')}</p>
      ) : (
        <ul className="flex flex-col gap-2" data-testid="triage-list">
          {itens.map((item) => (
            <TriageRow key={item.id} item={item} />
          ))}
        </ul>
      )}
      {itens.length > 10 ? pager(t('triage.pagesEnd')) : null}
    </div>
  );
}

function TriageRow({ item }: { item: TriageItem }) {
  const t = useT();
  const locale = useLocale();
  const { totais, situacao } = item;
  const points = item.horas.map((hour) => ({ ok: hour.entregues, failed: hour.falhas }));
  return (
    <li
      className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm"
      data-webhook-id={item.id}
      data-state={situacao.estado}
      data-alert={item.alerta ? item.alerta.tipo : undefined}
    >
      <div className="min-w-0 flex-1 basis-64">
        <p className="font-mono text-sm font-medium break-all text-slate-900">{item.url}</p>
        <p className="mt-0.5 font-mono text-xs break-all text-slate-600">{item.usuarioId}</p>
        <div className="mt-1.5 flex flex-wrap items-center gap-2">
          {item.alerta ? <Badge tone="danger">{t('triage.alert')}</Badge> : null}
          <HealthSituation situation={situacao} attempts={totais.entregues + totais.falhas} />
        </div>
      </div>
      <Sparkline points={points} label={t('triage.sparkline', { delivered: totais.entregues, failed: totais.falhas })} />
      <div className="w-24 text-right">
        <p className="text-lg font-semibold text-slate-900 tabular-nums">{formatRate(totais.taxaSucesso, locale, '—')}</p>
        <p className="text-xs text-slate-600">
          {situacao.devidas > 0 ? t('triage.backlog', { count: situacao.devidas }) : t('health.successRate')}
        </p>
      </div>
      <Link
        href={`/webhooks/${item.id}`}
        className={buttonClasses('secondary', 'sm')}
        aria-label={t('triage.openLabel', { url: item.url })}
      >
        {t('triage.open')}
      </Link>
    </li>
  );
}
