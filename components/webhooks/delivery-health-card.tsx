'use client';
import type { EditorSectionId } from './editor-sections';
import dynamic from 'next/dynamic';
import { useEffect, useMemo, useState } from 'react';
import { ToggleGroup } from '@/components/ui/toggle-group';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { QueryError } from '@/components/console/query-status';
import { useDeliveryHealth } from '@/lib/client/delivery-queries';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { formatNumber } from '@/lib/i18n/numbers';
import { useLocale, useT } from '@/lib/i18n/client';
import type { DeliveryHealth } from '@/lib/webhooks/delivery/health-contract';
import { HEALTH_WINDOWS, type HealthWindow } from '@/lib/webhooks/delivery/fields';
import { formatRate, HealthSituation } from './health-situation';

// The chart library loads with this card only, never on pages without a chart.
const loadChart = () => import('./health-chart').then((module) => module.HealthChart);
const HealthChart = dynamic(loadChart, {
  ssr: false,
  loading: () => <div className="h-[220px]" />,
});

/** A configuration's delivery health (issue 20 §3): where it stands, its backlog, and its attempts hour by hour. */
export function DeliveryHealthCard({ id }: { id: string }) {
  const t = useT();
  const [period, setPeriod] = useState<HealthWindow>('24h');
  const health = useDeliveryHealth(id, period);
  // The chart's code is fetched beside the figures, not after them: in turn (card, then figures, then
  // the chart's chunk) a loaded machine left the figure empty past a check's wait, the totals shown.
  useEffect(() => void loadChart(), []);
  return (
    <Card
      title={t('health.title')}
      titleId="health-title"
      id={'saude' satisfies EditorSectionId}
      description={t('health.description')}
      className="mt-8"
      actions={
        <ToggleGroup
          label={t('health.window')}
          options={HEALTH_WINDOWS}
          value={period}
          onChange={setPeriod}
          optionLabel={(option) => t(`health.window.${option}`)}
        />
      }
    >
      {health.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : health.isError ? (
        <QueryError query={health} />
      ) : (
        <HealthFigures health={health.data} />
      )}
    </Card>
  );
}

function HealthFigures({ health }: { health: DeliveryHealth }) {
  const t = useT();
  const locale = useLocale();
  const { totais, situacao, horas } = health;
  const rate = formatRate(totais.taxaSucesso, locale, t('health.noAttempts'));
  const number = (value: number) => formatNumber(value, locale);
  const labels = useMemo(
    () => ({ hour: t('health.column.hour'), delivered: t('health.delivered'), failed: t('health.failed'), latency: t('health.latency') }),
    [t],
  );
  const summary = t('health.chartLabel', {
    window: t(`health.window.${health.janela}`),
    // Numbers, not text: the message picks its plural by them and writes them the reader's way.
    delivered: totais.entregues,
    failed: totais.falhas,
    rate,
  });
  return (
    <div className="flex flex-col gap-4">
      <HealthSituation situation={situacao} attempts={totais.entregues + totais.falhas} />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-5">
        <Figure term={t('health.delivered')} value={number(totais.entregues)} />
        <Figure term={t('health.failed')} value={number(totais.falhas)} />
        <Figure term={t('health.successRate')} value={rate} />
        {/* Every delivery still to go: due now, and waiting for its retry (counted too, and said apart). */}
        <Figure
          term={t('health.backlog')}
          value={number(situacao.devidas + situacao.aguardandoNovaTentativa)}
          note={
            [
              situacao.maisAntigaDevidaDesde
                ? t('health.backlogOldest', { since: brasiliaDateTime(situacao.maisAntigaDevidaDesde, locale) })
                : undefined,
              situacao.aguardandoNovaTentativa > 0 ? t('health.backlogWaiting', { count: situacao.aguardandoNovaTentativa }) : undefined,
            ]
              .filter(Boolean)
              .join('; ') || undefined
          }
        />
        {/* Events its payload control kept from the receiver (issue 46): not attempts, so apart from the rate. */}
        {totais.filtradas ? <Figure term={t('health.filtered')} value={number(totais.filtradas)} note={t('health.filteredNote')} /> : null}
      </dl>
      {totais.entregues + totais.falhas === 0 ? (
        <p className="text-sm text-slate-600">{t('health.empty')}</p>
      ) : (
        <div className="flex flex-col gap-1">
          <figure role="img" aria-label={summary}>
            <HealthChart hours={horas} labels={labels} locale={locale} />
          </figure>
          <p className="text-xs text-slate-600">{t('health.legendHint')}</p>
        </div>
      )}
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-indigo-700">{t('health.asTable')}</summary>
        <HealthTable health={health} />
      </details>
    </div>
  );
}

function Figure({ term, value, note }: { term: string; value: string; note?: string }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-600">{term}</dt>
      <dd className="text-lg font-semibold text-slate-900 tabular-nums">{value}</dd>
      {note ? <dd className="text-xs text-slate-600">{note}</dd> : null}
    </div>
  );
}

/** The chart's figures, hour by hour, hours with attempts only (a week has 168). */
function HealthTable({ health }: { health: DeliveryHealth }) {
  const t = useT();
  const locale = useLocale();
  const rows = health.horas.filter((hour) => hour.entregues + hour.falhas > 0).reverse();
  if (rows.length === 0) return <p className="mt-2 text-slate-600">{t('health.empty')}</p>;
  return (
    <div className="mt-2 max-h-80 overflow-auto">
      <table className="w-full text-left tabular-nums">
        <caption className="sr-only">{t('health.title')}</caption>
        <thead className="text-xs text-slate-600">
          <tr>
            <th scope="col" className="px-2 py-1">
              {t('health.column.hour')}
            </th>
            <th scope="col" className="px-2 py-1 text-right">
              {t('health.column.delivered')}
            </th>
            <th scope="col" className="px-2 py-1 text-right">
              {t('health.column.failed')}
            </th>
            <th scope="col" className="px-2 py-1 text-right">
              {t('health.column.latency')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((hour) => (
            <tr key={hour.inicio} className="border-t border-slate-100">
              <th scope="row" className="px-2 py-1 font-normal whitespace-nowrap">
                {brasiliaDateTime(hour.inicio, locale)}
              </th>
              <td className="px-2 py-1 text-right">{hour.entregues}</td>
              <td className="px-2 py-1 text-right">{hour.falhas}</td>
              <td className="px-2 py-1 text-right">{hour.latenciaMediaMs ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
