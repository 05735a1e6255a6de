import { PageHeader } from '@/components/ui/card';
import { StaffAdmin } from '@/components/staff/staff-admin';
import { requireCapability } from '@/lib/auth/console-session';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { adminKeys } from '@/lib/client/admin-query-keys';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { listStaff } from '@/lib/staff/service';

export async function generateMetadata() {
  return { title: (await getT())('staffAdmin.title') };
}

export default async function StaffPage() {
  const t = await getT();
  // Who is looking: their own row offers no change the server would refuse them.
  const staff = await requireCapability('administration', '/admin/equipe');
  // The list, from the same loader as the API's operation: in the page's first HTML, not fetched
  // and rendered again after hydration.
  const answers = await prefetchedAnswers([{ queryKey: adminKeys.staff, load: () => listStaff() }]);
  return (
    <>
      <PageHeader title={t('staffAdmin.title')} description={t('staffAdmin.intro')} />
      <PrefetchedQueries answers={answers}>
        <StaffAdmin currentUserId={staff.userId} />
      </PrefetchedQueries>
    </>
  );
}
