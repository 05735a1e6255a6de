import { redirect } from 'next/navigation';
import { currentStaff, homePathFor } from '@/lib/auth/console-session';

export const dynamic = 'force-dynamic';

/** The start page: the first console area the user may open, or sign-in. */
export default async function Home() {
  const staff = await currentStaff();
  redirect(staff ? homePathFor(staff) : '/sign-in');
}
