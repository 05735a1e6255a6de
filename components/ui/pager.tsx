'use client';
import { Button, buttonClasses } from './button';
import { Link } from './link';

/**
 * Previous and next for a paged list, with where the reader is ("Alertas 6–10 de 12"). Pages are
 * links (`href`, so a page has an address) or buttons (`onPage`, for a list inside another page).
 * Nothing when everything fits on one page.
 */
export function Pager({
  page,
  pageSize,
  total,
  range,
  labels,
  href,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** "Configurações {first}–{last} de {total}", filled. */
  range: (first: number, last: number) => string;
  /** `nav` names the navigation landmark: unique on the page (a second pager at a list's end gets its own). */
  labels: { nav: string; previous: string; next: string };
  href?: (page: number) => string;
  onPage?: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1 && page === 1) return null;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const step = (to: number, label: string, enabled: boolean) => {
    if (!enabled)
      return (
        <Button variant="secondary" size="sm" disabled>
          {label}
        </Button>
      );
    if (href)
      return (
        <Link href={href(to)} className={buttonClasses('secondary', 'sm')}>
          {label}
        </Link>
      );
    return (
      <Button variant="secondary" size="sm" onClick={() => onPage?.(to)}>
        {label}
      </Button>
    );
  };
  return (
    <nav aria-label={labels.nav} className="flex flex-wrap items-center gap-3 text-sm text-slate-700" data-testid="pager">
      {step(page - 1, labels.previous, page > 1)}
      {/* A page past the end (the list got shorter) has no range to tell. */}
      <span aria-live="polite">{first <= total ? range(first, last) : null}</span>
      {step(page + 1, labels.next, page < pages)}
    </nav>
  );
}
