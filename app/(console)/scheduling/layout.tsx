import type { ReactNode } from 'react';
import { requireCapability } from '@/lib/auth/console-session';

/** The role check sits here, before the page renders, so a refusal is a real 403. */
export default async function SchedulingLayout({ children }: { children: ReactNode }) {
  await requireCapability('scheduling', '/scheduling');
  return children;
}
