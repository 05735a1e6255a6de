import { PageHeader } from '@/components/ui/card';
import { DeliveryTriage } from '@/components/webhooks/delivery-triage';
import { requireCapability } from '@/lib/auth/console-session';
import { webhookKeys } from '@/lib/client/webhook-query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { deliveryTriage } from '@/lib/webhooks/delivery/health';

export async function generateMetadata() {
  return { title: (await getT())('triage.title') };
}

/** Triage for staff with the webhooks role: every configuration's delivery health, worst first. */
export default async function DeliveryHealthPage() {
  const [t, staff] = await Promise.all([getT(), requireCapability('webhooks', '/webhooks/saude')]);
  // The same loader as the operation (GET …/saude-entregas), under the key the list reads.
  const answers = await prefetchedAnswers([{ queryKey: webhookKeys.triage, load: () => deliveryTriage(staff) }]);
  return (
    <>
      <PageHeader title={t('triage.title')} description={t('triage.intro')} />
      <PrefetchedQueries answers={answers}>
        <DeliveryTriage />
      </PrefetchedQueries>
    </>
  );
}
