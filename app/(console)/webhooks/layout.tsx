import type { ReactNode } from 'react';
import { requireCapability } from '@/lib/auth/console-session';

/** The role check sits here, before any page renders, so a refusal is a real 403. */
export default async function WebhooksLayout({ children }: { children: ReactNode }) {
  await requireCapability('webhooks', '/webhooks');
  return children;
}
