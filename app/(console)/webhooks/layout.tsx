import type { ReactNode } from 'react';
import { DeliveryAlertsAfterHydration } from '@/components/webhooks/delivery-alerts-after-hydration';
import { requireCapability } from '@/lib/auth/console-session';

/**
 * The role check sits here, before any page renders, so a refusal is a real 403. Every webhooks
 * page shows the open delivery alerts above its content.
 */
export default async function WebhooksLayout({ children }: { children: ReactNode }) {
  await requireCapability('webhooks', '/webhooks');
  return (
    <>
      <DeliveryAlertsAfterHydration />
      {children}
    </>
  );
}
