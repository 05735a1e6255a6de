import { PageHeader } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { buttonClasses } from '@/components/ui/button-classes';
import { ReservationWorkspace } from '@/components/scheduling/reservation-workspace';
import { requireCapability } from '@/lib/auth/console-session';
import { FREE_SLOTS_LIMIT, RECENT_RESERVATIONS_LIMIT, schedulingKeys } from '@/lib/client/query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { freeSlotQuerySchema, type FreeSlot } from '@/lib/scheduling/contract';
import { openingDay, windowOf } from '@/lib/scheduling/calendar';
import { listAgendas, listFreeSlots, recentReservations } from '@/lib/scheduling/service';

export async function generateMetadata() {
  return { title: (await getT())('scheduling.title') };
}

export default async function SchedulingPage() {
  const [t, staff] = await Promise.all([getT(), requireCapability('scheduling', '/scheduling')]);
  // The free slots and recent reservations, from the same loaders as the API's operations. The exam
  // listing stays with the browser: it is small and kept for minutes, and it is the one list whose
  // absence (a back-end without one answers 501) changes the form itself, which is decided there.
  const freeKey = schedulingKeys.slots({});
  const answers = await prefetchedAnswers([
    { queryKey: freeKey, load: () => listFreeSlots(freeSlotQuerySchema.parse({ limite: FREE_SLOTS_LIMIT }), staff) },
    { queryKey: schedulingKeys.recent, load: () => recentReservations(staff, RECENT_RESERVATIONS_LIMIT) },
  ]);
  // The agendas of the day the calendar opens on, which it picks from the free slots above: the
  // calendar then asks only for the slots of the agendas it shows.
  const freeSlots = answers.find((answer) => answer.queryKey === freeKey)?.data as FreeSlot[] | undefined;
  const { de, ate } = windowOf('day', openingDay(freeSlots));
  answers.push(
    ...(await prefetchedAnswers([{ queryKey: schedulingKeys.agendas({ de, ate }), load: () => listAgendas({ de, ate }, staff) }])),
  );
  return (
    <>
      <PageHeader
        title={t('scheduling.title')}
        description={t('scheduling.intro')}
        actions={
          <Link href="/scheduling/lista-espera" className={buttonClasses('secondary', 'sm')}>
            {t('nav.waitlist')}
          </Link>
        }
      />
      <PrefetchedQueries answers={answers}>
        <ReservationWorkspace />
      </PrefetchedQueries>
    </>
  );
}
