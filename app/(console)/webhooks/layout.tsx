import type { ReactNode } from 'react';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { DeliveryAlertsAfterHydration } from '@/components/webhooks/delivery-alerts-after-hydration';
import { DeliveryAlertsNotice } from '@/components/webhooks/delivery-alerts-notice';
import { requireCapability } from '@/lib/auth/console-session';
import { webhookKeys } from '@/lib/client/webhook-query-keys';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { alertsFor } from '@/lib/webhooks/alerts/service';
import { ALERTS_PAGE_SIZE } from '@/lib/webhooks/delivery/fields';
import type { AlertPage } from '@/lib/webhooks/delivery/health-contract';

/**
 * The role check sits here, before any page renders, so a refusal is a real 403. Every webhooks
 * page shows the open delivery alerts above its content: rendered here on the server, and kept
 * current by the browser once the page is up.
 */
export default async function WebhooksLayout({ children }: { children: ReactNode }) {
  const staff = await requireCapability('webhooks', '/webhooks');
  const answers = await prefetchedAnswers([
    { queryKey: webhookKeys.alerts(1), load: () => alertsFor(staff, { limite: ALERTS_PAGE_SIZE, pagina: 1 }) },
  ]);
  return (
    <>
      <PrefetchedQueries answers={answers}>
        <DeliveryAlertsAfterHydration initial={<DeliveryAlertsNotice page={answers[0]?.data as AlertPage | undefined} />} />
      </PrefetchedQueries>
      {children}
    </>
  );
}
