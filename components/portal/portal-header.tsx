'use client';
import { usePathname } from 'next/navigation';
import { Link } from '@/components/ui/link';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/components/ui/cn';
import { LanguageSwitch } from '@/components/console/language-switch';
import { PortalSignOut } from './portal-sign-out';
import { useLocale, useT } from '@/lib/i18n/client';
import { brasiliaDateTime } from '@/lib/i18n/brasilia-time';

/**
 * The portal's header: whose portal it is (its API client's name, and its usuarioId), until when,
 * its two pages, the language and signing out. No link into the console.
 */
export function PortalHeader({
  tenantName,
  usuarioId,
  readOnly,
  until,
}: {
  tenantName: string | undefined;
  usuarioId: string;
  readOnly: boolean;
  until: string;
}) {
  const t = useT();
  const locale = useLocale();
  const pathname = usePathname();
  const links = [
    { href: '/portal', label: t('portal.nav.configs'), active: pathname === '/portal' || pathname.startsWith('/portal/webhooks') },
    { href: '/portal/eventos', label: t('portal.nav.events'), active: pathname.startsWith('/portal/eventos') },
  ];
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:px-6">
        <p className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <span aria-hidden className="inline-block h-6 w-6 rounded bg-indigo-700 text-center text-sm leading-6 text-white">
            P
          </span>
          {t('portal.title')}
        </p>
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
          {tenantName ? (
            <span className="text-sm font-medium text-slate-900" data-testid="portal-tenant-name">
              {tenantName}
            </span>
          ) : null}
          {/* One line: a UUID broken mid-string reads as two ids. */}
          <span className="whitespace-nowrap">
            <span className="sr-only">{t('webhook.usuarioId')} </span>
            <span className="font-mono" data-testid="portal-tenant">
              {usuarioId}
            </span>
          </span>
          {readOnly ? <Badge tone="info">{t('portal.readOnly')}</Badge> : null}
          <span>{t('portal.sessionUntil', { when: brasiliaDateTime(until, locale) })}</span>
        </div>
        <div className="ml-auto flex items-center gap-2">
          <LanguageSwitch />
          <PortalSignOut />
        </div>
        <nav aria-label={t('portal.nav.label')} className="-mx-3 w-full">
          <ul className="flex flex-wrap gap-1">
            {links.map((link) => (
              <li key={link.href}>
                <Link
                  href={link.href}
                  aria-current={link.active ? 'page' : undefined}
                  className={cn(
                    'inline-flex h-9 items-center rounded-md px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                    link.active ? 'bg-indigo-50 text-indigo-800' : 'text-slate-700 hover:bg-slate-100',
                  )}
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
