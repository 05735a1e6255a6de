'use client';
import { Link } from '@/components/ui/link';
import { cn } from '@/components/ui/cn';

export type NavLink = { href: string; label: string; active: boolean };

/**
 * A header's page links, the console's and the portal's: the current page's marked (aria-current)
 * and highlighted. `stacked`: one under another below `lg`, as the console's folded menu shows
 * them on a phone; the portal's two always fit one row.
 */
export function NavLinks({
  label,
  links,
  stacked = false,
  className,
  onNavigate,
}: {
  label: string;
  links: NavLink[];
  stacked?: boolean;
  className: string;
  onNavigate?: () => void;
}) {
  return (
    <nav aria-label={label} className={className}>
      <ul className={stacked ? 'flex flex-col gap-1 lg:flex-row lg:flex-wrap' : 'flex flex-wrap gap-1'}>
        {links.map((link) => (
          <li key={link.href}>
            <Link
              href={link.href}
              aria-current={link.active ? 'page' : undefined}
              onClick={onNavigate}
              className={cn(
                'items-center rounded-md px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                stacked ? 'flex h-10 lg:inline-flex lg:h-9' : 'inline-flex h-9',
                link.active ? 'bg-indigo-50 text-indigo-800' : 'text-slate-700 hover:bg-slate-100',
              )}
            >
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
