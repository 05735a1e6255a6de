import type { ReactNode } from 'react';
import { ConsoleHeader } from '@/components/console/console-header';
import { ConsoleProviders } from '@/components/console/console-providers';
import { requireStaff } from '@/lib/auth/console-session';
import { hasCapability } from '@/lib/auth/principal';
import { getT } from '@/lib/i18n/server';

export const dynamic = 'force-dynamic';

/** Every console page: a signed-in staff user, the header with the areas their roles open. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const staff = await requireStaff();
  const t = await getT();
  return (
    <ConsoleProviders>
      <a
        href="#main"
        className="sr-only rounded bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:outline-2 focus:outline-indigo-600"
      >
        {t('app.skipToContent')}
      </a>
      <ConsoleHeader
        user={{ name: staff.name, email: staff.email, roles: staff.roles }}
        areas={{
          webhooks: hasCapability(staff, 'webhooks'),
          scheduling: hasCapability(staff, 'scheduling'),
          administration: hasCapability(staff, 'administration'),
        }}
      />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl px-4 py-6 focus:outline-none sm:px-6 lg:py-8">
        {children}
      </main>
    </ConsoleProviders>
  );
}
