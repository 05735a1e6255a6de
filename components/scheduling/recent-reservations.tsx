'use client';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { QueryStatus } from '@/components/console/query-status';
import { useRecentReservations } from '@/lib/client/slot-queries';
import { useLocale, useT } from '@/lib/i18n/client';
import type { RecentReservation } from '@/lib/scheduling/recent-reservations';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';
import { ColumnHeaders } from '@/components/ui/column-headers';

/** `releasing`: a request of the page is on its way, so no second release starts meanwhile. */
type RowProps = { reservation: RecentReservation; onRelease: (reservation: RecentReservation) => void; releasing: boolean };
type ListProps = { items: RecentReservation[] } & Omit<RowProps, 'reservation'>;

const STATE_TONE = { active: 'success', released: 'neutral', expired: 'warning' } as const;

/** The state, and for a hold that lapses, when it does (or did): an unreleased hold frees its slot then. */
function StateBadge({ reservation }: Pick<RowProps, 'reservation'>) {
  const t = useT();
  const locale = useLocale();
  const { estado, expiraEm } = reservation;
  const lapse = estado !== 'released' && expiraEm ? brasiliaDateTime(expiraEm, locale) : undefined;
  return (
    <span className="inline-flex flex-col items-start gap-0.5">
      <Badge tone={STATE_TONE[estado]}>{t(`recent.state.${estado}`)}</Badge>
      {lapse ? (
        <span className="text-xs whitespace-nowrap text-slate-600" data-testid="hold-expires">
          {t(estado === 'expired' ? 'recent.expiredAt' : 'recent.expiresAt', { time: lapse })}
        </span>
      ) : null}
    </span>
  );
}

function ReleaseButton({ reservation, onRelease, releasing }: RowProps) {
  const t = useT();
  if (reservation.estado !== 'active') return null;
  return (
    <Button
      size="sm"
      variant="danger"
      disabled={releasing}
      onClick={() => onRelease(reservation)}
      aria-label={t('recent.releaseLabel', { slot: reservation.nrSeqAgenda })}
    >
      {t('recent.release')}
    </Button>
  );
}

/** Wide screens: one table row per reservation. */
function RecentTable({ items, onRelease, releasing }: ListProps) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="hidden sm:block" role="region" aria-labelledby="recent-title">
      <table className="w-full text-left text-sm" data-testid="recent-reservations">
        <thead className="text-xs text-slate-700">
          <ColumnHeaders
            className="border-b border-slate-200"
            columns={[
              { label: t('recent.column.when'), time: true },
              { label: t('recent.column.slot'), mono: true },
              { label: t('recent.column.by'), hideBelow: 'md' },
              { label: t('recent.column.token') },
              { label: t('recent.column.state') },
              { label: t('recent.column.actions'), actions: true },
            ]}
          />
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((reservation) => (
            <tr key={reservation.token} data-token={reservation.token}>
              <td className="px-3 py-2 whitespace-nowrap">{brasiliaDateTime(reservation.em, locale, { seconds: true })}</td>
              <td className="px-3 py-2 font-mono">{reservation.nrSeqAgenda}</td>
              <td className="hidden max-w-[12rem] truncate px-3 py-2 md:table-cell" title={reservation.ator}>
                {reservation.ator}
              </td>
              <td className="px-3 py-2 font-mono text-xs break-all">{reservation.token}</td>
              <td className="px-3 py-2">
                <StateBadge reservation={reservation} />
              </td>
              <td className="px-3 py-2 text-right">
                <ReleaseButton reservation={reservation} onRelease={onRelease} releasing={releasing} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Narrow screens: one stacked card per reservation, state and release always in view. */
function RecentCards({ items, onRelease, releasing }: ListProps) {
  const t = useT();
  const locale = useLocale();
  return (
    <ul className="flex flex-col gap-3 sm:hidden" aria-labelledby="recent-title" data-testid="recent-reservation-cards">
      {items.map((reservation) => (
        <li key={reservation.token} data-token={reservation.token} className="rounded-md border border-slate-200 p-3 text-sm">
          <div className="flex items-center justify-between gap-3">
            <StateBadge reservation={reservation} />
            <ReleaseButton reservation={reservation} onRelease={onRelease} releasing={releasing} />
          </div>
          <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1">
            <dt className="text-slate-600">{t('recent.column.when')}</dt>
            <dd>
              {brasiliaDateTime(reservation.em, locale, { seconds: true })}{' '}
              <span className="block text-xs text-slate-600">{t('time.brasilia')}</span>
            </dd>
            <dt className="font-mono text-slate-600">{t('recent.column.slot')}</dt>
            <dd className="font-mono">{reservation.nrSeqAgenda}</dd>
            <dt className="text-slate-600">{t('recent.column.token')}</dt>
            <dd className="font-mono text-xs break-all">{reservation.token}</dd>
            <dt className="text-slate-600">{t('recent.column.by')}</dt>
            <dd className="break-all">{reservation.ator}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

export function RecentReservations({ onRelease, releasing }: Omit<RowProps, 'reservation'>) {
  const t = useT();
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
          <>
            <RecentTable items={items} onRelease={onRelease} releasing={releasing} />
            <RecentCards items={items} onRelease={onRelease} releasing={releasing} />
          </>
        )}
      </QueryStatus>
    </Card>
  );
}
