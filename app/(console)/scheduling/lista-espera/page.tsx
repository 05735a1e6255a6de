import { PageHeader } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { buttonClasses } from '@/components/ui/button-classes';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { WaitlistWorkspace } from '@/components/scheduling/waitlist-workspace';
import { requireCapability } from '@/lib/auth/console-session';
import { schedulingKeys } from '@/lib/client/query-keys';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { waitlistLines } from '@/lib/waitlist/service';

export async function generateMetadata() {
  return { title: (await getT())('waitlist.title') };
}

export default async function WaitlistPage() {
  const [t, staff] = await Promise.all([getT(), requireCapability('scheduling', '/scheduling/lista-espera')]);
  const answers = await prefetchedAnswers([{ queryKey: schedulingKeys.waitlist, load: () => waitlistLines(staff) }]);
  return (
    <>
      <PageHeader
        title={t('waitlist.title')}
        description={t('waitlist.intro')}
        actions={
          <Link href="/scheduling" className={buttonClasses('secondary', 'sm')}>
            {t('nav.scheduling')}
          </Link>
        }
      />
      <PrefetchedQueries answers={answers}>
        <WaitlistWorkspace />
      </PrefetchedQueries>
    </>
  );
}
