'use client';
import { lazy } from 'react';
import { AfterHydration } from '@/components/ui/after-hydration';

const DeliveryAlerts = lazy(() => import('./delivery-alerts').then((module) => ({ default: module.DeliveryAlerts })));

/**
 * The open delivery alerts above every webhooks page. The browser asks for them once the page is
 * up (they are polled), so their code loads then too, out of each page's first load.
 */
export function DeliveryAlertsAfterHydration() {
  return (
    <AfterHydration fallback={null}>
      <DeliveryAlerts />
    </AfterHydration>
  );
}
