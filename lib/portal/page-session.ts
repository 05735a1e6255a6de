import 'server-only';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { ApiClientPrincipal } from '@/lib/auth/principal';
import type { PortalSessionView } from './contract';
import { PORTAL_COOKIE, PORTAL_PATH } from './cookie';
import { portalPrincipalOf, portalSessionView } from './service';

/**
 * The portal pages' session check: the portal's cookie, read through the same functions as its API
 * path, once per render. No portal session → the entry page, which says the session is over; never
 * the staff sign-in, and a staff session is not looked at.
 */
export const currentPartner = cache(async (): Promise<{ principal: ApiClientPrincipal; session: PortalSessionView } | undefined> => {
  const value = (await cookies()).get(PORTAL_COOKIE)?.value;
  const [principal, session] = await Promise.all([portalPrincipalOf(value), portalSessionView(value)]);
  return principal && session ? { principal, session } : undefined;
});

export async function requirePartner(): Promise<{ principal: ApiClientPrincipal; session: PortalSessionView }> {
  const partner = await currentPartner();
  if (!partner) redirect(`${PORTAL_PATH}/entrar?encerrada=1`);
  return partner;
}
