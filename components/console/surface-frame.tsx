import type { ReactNode } from 'react';
import type { ApiBase } from '@/lib/client/api';
import { getT } from '@/lib/i18n/server';
import { cn } from '@/components/ui/cn';
import { ConsoleProviders } from './console-providers';

/**
 * The frame of every page of a signed-in surface, the console's and the partner portal's: their
 * providers with the surface's API base, the skip link, the surface's own header, and the one
 * <main> the skip link lands on, as wide as the surface's pages need.
 */
export async function SurfaceFrame({
  apiBase,
  header,
  width,
  children,
}: {
  apiBase: ApiBase;
  header: ReactNode;
  width: 'max-w-7xl' | 'max-w-5xl';
  children: ReactNode;
}) {
  const t = await getT();
  return (
    <ConsoleProviders apiBase={apiBase}>
      <a
        href="#main"
        className="sr-only rounded bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:outline-2 focus:outline-indigo-600"
      >
        {t('app.skipToContent')}
      </a>
      {header}
      <main id="main" tabIndex={-1} className={cn('mx-auto w-full px-4 py-6 focus:outline-none sm:px-6 lg:py-8', width)}>
        {children}
      </main>
    </ConsoleProviders>
  );
}
