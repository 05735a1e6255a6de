import { PageHeader } from '@/components/ui/card';
import { ApiClientsAdmin } from '@/components/api-clients/api-clients-admin';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { listApiClients } from '@/lib/api-clients/service';
import { adminKeys } from '@/lib/client/admin-query-keys';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('apiClients.title') };
}

export default async function ApiClientsPage() {
  const t = await getT();
  // The list, from the same loader as the API's operation (the admin layout checked the role), so
  // the page arrives with it instead of fetching and rendering it again after hydration.
  const answers = await prefetchedAnswers([{ queryKey: adminKeys.apiClients, load: () => listApiClients() }]);
  return (
    <>
      <PageHeader title={t('apiClients.title')} description={t('apiClients.intro')} />
      <PrefetchedQueries answers={answers}>
        <ApiClientsAdmin />
      </PrefetchedQueries>
    </>
  );
}
