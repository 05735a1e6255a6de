import { PageHeader } from '@/components/ui/card';
import { DeliveryTriage } from '@/components/webhooks/delivery-triage';
import { requireCapability } from '@/lib/auth/console-session';
import { webhookKeys } from '@/lib/client/webhook-query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { deliveryTriage } from '@/lib/webhooks/alerts/triage';
import { TRIAGE_PAGE_SIZE } from '@/lib/webhooks/delivery/fields';

export async function generateMetadata() {
  return { title: (await getT())('triage.title') };
}

/** `?pagina=` as a page number; anything else is the first page. */
function pageOf(value: string | string[] | undefined): number {
  const page = typeof value === 'string' && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
  return page;
}

/** Triage for staff with the webhooks role: every configuration's delivery health, worst first, a page at a time. */
export default async function DeliveryHealthPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [t, staff, { pagina }] = await Promise.all([getT(), requireCapability('webhooks', '/webhooks/saude'), searchParams]);
  const page = pageOf(pagina);
  // The same loader as the operation (GET …/saude-entregas), under the key the list reads.
  const answers = await prefetchedAnswers([
    { queryKey: webhookKeys.triage(page), load: () => deliveryTriage(staff, { limite: TRIAGE_PAGE_SIZE, pagina: page }) },
  ]);
  return (
    <>
      <PageHeader title={t('triage.title')} description={t('triage.intro')} />
      <PrefetchedQueries answers={answers}>
        <DeliveryTriage page={page} />
      </PrefetchedQueries>
    </>
  );
}
