'use client';
import { Link } from '@/components/ui/link';
import { buttonClasses } from '@/components/ui/button';
import { Sparkline } from '@/components/ui/sparkline';
import { QueryStatus } from '@/components/console/query-status';
import { useDeliveryTriage } from '@/lib/client/delivery-queries';
import { useLocale, useT } from '@/lib/i18n/client';
import type { TriageItem } from '@/lib/webhooks/health-contract';
import { formatRate, HealthSituation } from './health-situation';

/** Every configuration's delivery health, worst first (the server orders them), for staff looking after many partners. */
export function DeliveryTriage() {
  const t = useT();
  const triage = useDeliveryTriage();
  return (
    <div aria-live="polite">
      <QueryStatus query={triage} empty={t('triage.empty')}>
        {(items) => (
          <>
            <p className="mb-3 text-sm text-slate-600">{t('webhooks.count', { count: items.length })}</p>
            <ul className="flex flex-col gap-2" data-testid="triage-list">
              {items.map((item) => (
                <TriageRow key={item.id} item={item} />
              ))}
            </ul>
          </>
        )}
      </QueryStatus>
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
    >
      <div className="min-w-0 flex-1 basis-64">
        <p className="font-mono text-sm font-medium break-all text-slate-900">{item.url}</p>
        <p className="mt-0.5 font-mono text-xs break-all text-slate-600">{item.usuarioId}</p>
        <div className="mt-1.5">
          <HealthSituation situation={situacao} />
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
