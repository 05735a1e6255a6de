import { PageHeader } from '@/components/ui/card';
import { ReservationWorkspace } from '@/components/scheduling/reservation-workspace';
import { requireCapability } from '@/lib/auth/console-session';
import { FREE_SLOTS_LIMIT, RECENT_RESERVATIONS_LIMIT, schedulingKeys } from '@/lib/client/query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { freeSlotQuerySchema } from '@/lib/scheduling/contract';
import { listFreeSlots, recentReservations } from '@/lib/scheduling/service';

export async function generateMetadata() {
  return { title: (await getT())('scheduling.title') };
}

export default async function SchedulingPage() {
  const [t, staff] = await Promise.all([getT(), requireCapability('scheduling', '/scheduling')]);
  // The free slots and recent reservations, from the same loaders as the API's operations. The exam
  // listing stays with the browser: it is small and kept for minutes, and it is the one list whose
  // absence (a back-end without one answers 501) changes the form itself, which is decided there.
  const answers = await prefetchedAnswers([
    { queryKey: schedulingKeys.slots({}), load: () => listFreeSlots(freeSlotQuerySchema.parse({ limite: FREE_SLOTS_LIMIT }), staff) },
    { queryKey: schedulingKeys.recent, load: () => recentReservations(staff, RECENT_RESERVATIONS_LIMIT) },
  ]);
  return (
    <>
      <PageHeader title={t('scheduling.title')} description={t('scheduling.intro')} />
      <PrefetchedQueries answers={answers}>
        <ReservationWorkspace />
      </PrefetchedQueries>
    </>
  );
}
