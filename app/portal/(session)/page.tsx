import { PageHeader } from '@/components/ui/card';
import { WebhookList } from '@/components/webhooks/webhook-list';
import { webhookKeys } from '@/lib/client/webhook-query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { requirePartner } from '@/lib/portal/page-session';
import { searchWebhooks } from '@/lib/webhooks/configurations/service/access';

export async function generateMetadata() {
  return { title: (await getT())('portal.configsTitle') };
}

/** The tenant's configurations, as its API client lists them. */
export default async function PortalHome() {
  const [t, { principal }] = await Promise.all([getT(), requirePartner()]);
  const answers = await prefetchedAnswers([{ queryKey: webhookKeys.list(''), load: () => searchWebhooks(principal, undefined) }]);
  return (
    <>
      <PageHeader title={t('portal.configsTitle')} description={t('portal.configsIntro')} />
      <PrefetchedQueries answers={answers}>
        <WebhookList />
      </PrefetchedQueries>
    </>
  );
}
