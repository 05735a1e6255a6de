'use client';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { QueryStatus } from '@/components/console/query-status';
import { useRecentReservations } from '@/lib/client/scheduling-queries';
import { useLocale, useT } from '@/lib/i18n/client';
import type { RecentReservation } from '@/lib/scheduling/recent-reservations';
import { localDateTime } from './slot-time';

export function RecentReservations({ onRelease }: { onRelease: (reservation: RecentReservation) => void }) {
  const t = useT();
  const locale = useLocale();
  const recent = useRecentReservations();
  return (
    <Card
      title={t('recent.title')}
      titleId="recent-title"
      description={t('recent.intro')}
      actions={
        <Button variant="secondary" size="sm" onClick={() => recent.refetch()} disabled={recent.isFetching}>
          {t('recent.refresh')}
        </Button>
      }
    >
      <QueryStatus query={recent} empty={t('recent.empty')}>
        {(items) => (
        <div className="relative -mx-4 overflow-x-auto sm:mx-0" role="region" aria-labelledby="recent-title" tabIndex={0}>
          <table className="w-full min-w-[36rem] text-left text-sm" data-testid="recent-reservations">
            <thead className="text-xs text-slate-700">
              <tr className="border-b border-slate-200">
                <th scope="col" className="px-3 py-2 font-medium">{t('recent.column.when')}</th>
                <th scope="col" className="px-3 py-2 font-mono font-medium">{t('recent.column.slot')}</th>
                <th scope="col" className="hidden px-3 py-2 font-medium md:table-cell">{t('recent.column.by')}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t('recent.column.token')}</th>
                <th scope="col" className="px-3 py-2 font-medium">{t('recent.column.state')}</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">{t('recent.column.actions')}</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {items.map((reservation) => (
                <tr key={reservation.token} data-token={reservation.token}>
                  <td className="px-3 py-2 whitespace-nowrap">{localDateTime(reservation.at, locale)}</td>
                  <td className="px-3 py-2 font-mono">{reservation.nrSeqAgenda}</td>
                  <td className="hidden max-w-[12rem] truncate px-3 py-2 md:table-cell" title={reservation.actorId}>{reservation.actorId}</td>
                  <td className="px-3 py-2 font-mono text-xs">{reservation.token}</td>
                  <td className="px-3 py-2">
                    <Badge tone={reservation.state === 'active' ? 'success' : 'neutral'}>{t(`recent.state.${reservation.state}`)}</Badge>
                  </td>
                  <td className="px-3 py-2 text-right">
                    {reservation.state === 'active' ? (
                      <Button
                        size="sm"
                        variant="danger"
                        onClick={() => onRelease(reservation)}
                        aria-label={t('recent.releaseLabel', { slot: reservation.nrSeqAgenda })}
                      >
                        {t('recent.release')}
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        )}
      </QueryStatus>
    </Card>
  );
}
