'use client';
import { Link } from '@/components/ui/link';
import { usePathname } from 'next/navigation';
import { useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import type { StaffRole } from '@/lib/config/staff-roles';
import { useT } from '@/lib/i18n/client';
import { LanguageSwitch } from './language-switch';
import { NavLinks } from './nav-links';

type Props = {
  user: { name: string; email: string; roles: StaffRole[] };
  areas: { webhooks: boolean; scheduling: boolean; administration: boolean };
};

const MENU_ID = 'console-menu';

/**
 * The console's header. Wide screens show the brand and the account's controls on one row and the
 * navigation on a row of its own; below `lg` six links and the controls cannot fit a phone's width,
 * so they fold behind a "Menu" disclosure button (aria-expanded, aria-controls) that Escape and any
 * navigation close. Tab goes as the eye does: brand, account controls, navigation.
 */
export function ConsoleHeader({ user, areas }: Props) {
  const t = useT();
  const pathname = usePathname();
  const menuButton = useRef<HTMLButtonElement>(null);
  // The page the menu was opened on: navigating elsewhere closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const links = [
    areas.webhooks && { href: '/webhooks', label: t('nav.webhooks') },
    areas.webhooks && { href: '/webhooks/saude', label: t('nav.deliveryHealth') },
    areas.scheduling && { href: '/scheduling', label: t('nav.scheduling') },
    areas.administration && { href: '/admin/clientes', label: t('nav.apiClients') },
    areas.administration && { href: '/admin/equipe', label: t('nav.staff') },
    { href: '/conta', label: t('nav.account') },
  ].filter((link): link is { href: string; label: string } => Boolean(link));

  // The link whose area the page is in: the longest match, so /webhooks/saude is not also /webhooks.
  const activeHref = links
    .map((link) => link.href)
    .filter((href) => pathname === href || pathname.startsWith(`${href}/`))
    .sort((a, b) => b.length - a.length)[0];

  async function handleSignOut() {
    // Loaded on the click, out of every page's first load: signing out waits on the network anyway.
    const { signOut } = await import('@/lib/client/auth-requests');
    await signOut();
    // A full load, not a client navigation: nothing of the signed-in session may stay in memory.
    window.location.assign(new URL('/sign-in?signedOut=1', window.location.origin));
  }

  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !open) return;
    setOpenOn(null);
    menuButton.current?.focus();
  }

  return (
    <header className="border-b border-slate-200 bg-white" onKeyDown={closeOnEscape}>
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3 sm:px-6 lg:gap-y-2 lg:pb-2">
        <Link
          href="/"
          className="flex items-center gap-2 rounded text-base font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          <span aria-hidden className="inline-block h-6 w-6 rounded bg-indigo-700 text-center text-sm leading-6 text-white">
            IC
          </span>
          {t('app.name')}
        </Link>
        <Button
          ref={menuButton}
          variant="secondary"
          size="sm"
          className="ml-auto lg:hidden"
          aria-expanded={open}
          aria-controls={MENU_ID}
          onClick={() => setOpenOn(open ? null : pathname)}
        >
          <span aria-hidden className="text-base leading-none">
            {open ? '✕' : '☰'}
          </span>
          {t('header.menu')}
        </Button>
        {/* On wide screens its box gives way (`contents`): the controls join the brand's row, the navigation takes the next.
            The controls come first in the page's order, as they are seen: top row, then the navigation's row
            (and, in the phone's menu, above the links). */}
        <div id={MENU_ID} className={cn(open ? 'flex' : 'hidden', 'w-full flex-col gap-3 border-t border-slate-200 pt-3 lg:contents')}>
          <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 pb-3 lg:ml-auto lg:border-0 lg:pb-0">
            <div className="w-full text-xs leading-tight lg:w-auto lg:text-right">
              <p className="font-medium text-slate-900" data-testid="signed-in-user">
                {t('header.signedInAs', { name: user.name })}
              </p>
              <p className="text-slate-600">{t('header.roles', { roles: user.roles.map((role) => t(`role.${role}`)).join(', ') })}</p>
            </div>
            {/* A plain link: the reference is a page of its own, outside the console's layout. */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- an API operation (apiReference), not a console page */}
            <a
              href="/api/docs"
              className="rounded text-sm font-medium text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              {t('nav.apiDocs')}
            </a>
            <LanguageSwitch />
            <Button variant="secondary" size="sm" onClick={handleSignOut}>
              {t('header.signOut')}
            </Button>
          </div>
          <NavLinks
            label={t('nav.label')}
            links={links.map((link) => ({ ...link, active: link.href === activeHref }))}
            stacked
            className="lg:order-last lg:-mx-3 lg:w-full"
            onNavigate={() => setOpenOn(null)}
          />
        </div>
      </div>
    </header>
  );
}
