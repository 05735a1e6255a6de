import type { ReactNode } from 'react';
import { ConsoleProviders } from '@/components/console/console-providers';
import { PortalSurface } from '@/components/console/surface';
import { PortalHeader } from '@/components/portal/portal-header';
import { requirePartner } from '@/lib/portal/page-session';
import { getT } from '@/lib/i18n/server';
import { tenantName } from '@/lib/api-clients/service';

export const dynamic = 'force-dynamic';

/**
 * Every page of the partner portal (issue 30): a live portal session, the portal's own header (its
 * tenant by its API client's name and usuarioId, read-only or not, its two pages, the language,
 * signing out), none of the console's navigation.
 */
export default async function PortalLayout({ children }: { children: ReactNode }) {
  const { session, principal } = await requirePartner();
  const [t, name] = await Promise.all([getT(), tenantName(principal.usuarioId, principal.sistemaOrigem)]);
  return (
    <ConsoleProviders>
      <a
        href="#main"
        className="sr-only rounded bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:outline-2 focus:outline-indigo-600"
      >
        {t('app.skipToContent')}
      </a>
      <PortalHeader tenantName={name} usuarioId={session.usuarioId} readOnly={session.somenteLeitura} until={session.expiraEm} />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-5xl px-4 py-6 focus:outline-none sm:px-6 lg:py-8">
        <PortalSurface readOnly={session.somenteLeitura}>{children}</PortalSurface>
      </main>
    </ConsoleProviders>
  );
}
