'use client';
import { useT } from '@/lib/i18n/client';
import { cn } from './cn';

/**
 * A table's column headers from one list, so the console's tables read alike: every time column
 * names its zone (Brasília) under its title, and the actions column has a name for screen readers
 * only. `hidden` columns are left out on narrow screens (their values read under the first column).
 */
export type Column = { label: string; time?: boolean; mono?: boolean; hideBelow?: 'sm' | 'md'; actions?: boolean };

export function ColumnHeaders({ columns, className }: { columns: readonly Column[]; className?: string }) {
  const t = useT();
  return (
    <tr className={className}>
      {columns.map(({ label, time, mono, hideBelow, actions }) => (
        <th
          key={label}
          scope="col"
          className={cn(
            'px-3 py-2',
            !actions && 'font-medium',
            mono && 'font-mono',
            hideBelow === 'sm' && 'hidden sm:table-cell',
            hideBelow === 'md' && 'hidden md:table-cell',
          )}
        >
          {actions ? <span className="sr-only">{label}</span> : label}
          {time ? (
            <>
              {' '}
              <span className="block font-normal text-slate-600">{t('time.brasilia')}</span>
            </>
          ) : null}
        </th>
      ))}
    </tr>
  );
}
