'use client';
import { usePathname } from 'next/navigation';
import { Badge } from '@/components/ui/badge';
import { LanguageSwitch } from '@/components/console/language-switch';
import { NavLinks } from '@/components/console/nav-links';
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
        <NavLinks label={t('portal.nav.label')} links={links} className="-mx-3 w-full" />
      </div>
    </header>
  );
}
