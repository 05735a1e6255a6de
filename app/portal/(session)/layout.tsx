import type { ReactNode } from 'react';
import { SurfaceFrame } from '@/components/console/surface-frame';
import { PortalSurface } from '@/components/console/surface';
import { PortalHeader } from '@/components/portal/portal-header';
import { requirePartner } from '@/lib/portal/page-session';
import { tenantName } from '@/lib/api-clients/service';
import { API_BASES } from '@/lib/client/api';

export const dynamic = 'force-dynamic';

/**
 * Every page of the partner portal (issue 30): a live portal session, the portal's own header (its
 * tenant by its API client's name and usuarioId, read-only or not, its two pages, the language,
 * signing out), none of the console's navigation. Its pages' browser code calls the API at
 * /portal/api, with the portal's cookie.
 */
export default async function PortalLayout({ children }: { children: ReactNode }) {
  const { session, principal } = await requirePartner();
  const name = await tenantName(principal.usuarioId, principal.sistemaOrigem);
  return (
    <SurfaceFrame
      apiBase={API_BASES.portal}
      width="max-w-5xl"
      header={<PortalHeader tenantName={name} usuarioId={session.usuarioId} readOnly={session.somenteLeitura} until={session.expiraEm} />}
    >
      <PortalSurface readOnly={session.somenteLeitura}>{children}</PortalSurface>
    </SurfaceFrame>
  );
}
