import { Link } from '@/components/ui/link';
import { buttonClasses } from '@/components/ui/button-classes';
import { PageHeader } from '@/components/ui/card';
import { WebhookList } from '@/components/webhooks/webhook-list';
import { requireCapability } from '@/lib/auth/console-session';
import { webhookKeys } from '@/lib/client/webhook-query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { searchWebhooks } from '@/lib/webhooks/configurations/service/access';

export async function generateMetadata() {
  return { title: (await getT())('webhooks.title') };
}

export default async function WebhooksPage() {
  const [t, staff] = await Promise.all([getT(), requireCapability('webhooks', '/webhooks')]);
  // The unfiltered list, as the list component would ask the API for it (lib/console/prefetch.ts).
  const answers = await prefetchedAnswers([{ queryKey: webhookKeys.list(''), load: () => searchWebhooks(staff, undefined) }]);
  return (
    <>
      <PageHeader
        title={t('webhooks.title')}
        description={t('webhooks.intro')}
        actions={
          <Link href="/webhooks/new" className={buttonClasses('primary')}>
            {t('webhooks.new')}
          </Link>
        }
      />
      <PrefetchedQueries answers={answers}>
        <WebhookList />
      </PrefetchedQueries>
    </>
  );
}
