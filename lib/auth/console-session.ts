import 'server-only';
import { cookies } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { cache } from 'react';
import { hasCapability, type Capability, type StaffPrincipal } from './principal';
import { staffFromSession } from './staff-session';

/**
 * The session check of console pages. It reads the cookie through the same function the API routes
 * use, so a page and the API it calls always agree on who is signed in and with which roles.
 * Once per render (React's cache): the console layout and its page both ask, and each ask reads
 * the staff account from the database.
 */
export const currentStaff = cache(async (): Promise<StaffPrincipal | undefined> => {
  const cookieHeader = (await cookies()).toString();
  if (!cookieHeader) return undefined;
  return staffFromSession(new Request('http://console.internal/', { headers: { cookie: cookieHeader } }));
});

export async function requireStaff(returnTo = '/'): Promise<StaffPrincipal> {
  const staff = await currentStaff();
  if (!staff) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return staff;
}

/** Renders app/forbidden.tsx with status 403 when the signed-in user lacks the capability. */
export async function requireCapability(capability: Capability, returnTo: string): Promise<StaffPrincipal> {
  const staff = await requireStaff(returnTo);
  if (!hasCapability(staff, capability)) forbidden();
  return staff;
}

/** Where a user lands after sign-in: the first area their roles open. */
export function homePathFor(staff: StaffPrincipal): string {
  return hasCapability(staff, 'webhooks') ? '/webhooks' : '/scheduling';
}
