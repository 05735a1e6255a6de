import { Card } from '@/components/ui/card';
import { getT } from '@/lib/i18n/server';
import { OPERATIONAL_EVENT_TYPE_LIST } from '@/lib/webhooks/events/types';

/**
 * What the operator's own configuration receives: the operational events (lib/webhooks/operational),
 * fixed by OPERATIONAL_WEBHOOK_URL rather than chosen with switches, so listed, not toggled. The
 * partners' five event flags mean nothing to it.
 */
export async function OperationalEvents() {
  const t = await getT();
  return (
    <Card title={t('operational.title')} titleId="events-title" description={t('operational.help')}>
      <ul className="divide-y divide-slate-200" data-testid="operational-events">
        {OPERATIONAL_EVENT_TYPE_LIST.map((type) => (
          <li key={type} className="py-3 first:pt-0 last:pb-0">
            <p className="text-sm font-medium text-slate-900">
              {t(`operational.event.${type}`)} <span className="block font-mono text-xs font-normal text-slate-600">{type}</span>
            </p>
            <p className="text-sm text-slate-600">{t(`operational.eventHelp.${type}`)}</p>
          </li>
        ))}
      </ul>
    </Card>
  );
}
