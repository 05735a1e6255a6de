'use client';
import { lazy, type ReactNode } from 'react';
import { AfterHydration } from '@/components/ui/after-hydration';

const DeliveryAlerts = lazy(() => import('./delivery-alerts').then((module) => ({ default: module.DeliveryAlerts })));

/**
 * The open delivery alerts above every webhooks page. The server's notice (`initial`,
 * delivery-alerts-notice.tsx) is in the first HTML; the browser's, which is polled and pages, loads
 * once the page is up, out of each page's first load, and takes over from the same answer.
 */
export function DeliveryAlertsAfterHydration({ initial }: { initial: ReactNode }) {
  return (
    <AfterHydration fallback={initial}>
      <DeliveryAlerts />
    </AfterHydration>
  );
}
