import { PageHeader } from '@/components/ui/card';
import { Link } from '@/components/ui/link';
import { buttonClasses } from '@/components/ui/button-classes';
import { ReservationWorkspace } from '@/components/scheduling/reservation-workspace';
import { requireCapability } from '@/lib/auth/console-session';
import { FREE_SLOTS_LIMIT, RECENT_RESERVATIONS_LIMIT, SLOT_GRID_LIMIT, schedulingKeys } from '@/lib/client/query-keys';
import { PrefetchedQueries } from '@/components/console/prefetched-queries';
import { prefetchedAnswers } from '@/lib/console/prefetch';
import { getT } from '@/lib/i18n/server';
import { freeSlotQuerySchema, slotQuerySchema, type Agenda, type FreeSlot } from '@/lib/scheduling/contract';
import { openingDay, windowOf } from '@/lib/scheduling/calendar';
import { listAgendas, listFreeSlots, listSlots, recentReservations } from '@/lib/scheduling/service';
import { readCalendarAddress } from '@/components/scheduling/calendar/address';
import { MAX_DAY_COLUMNS } from '@/components/scheduling/calendar/geometry';
import { StyleNonce } from '@/components/scheduling/calendar/style-nonce';
import { CSP_HEADER } from '@/lib/http/security-headers';
import { headers } from 'next/headers';

/** This response's CSP nonce, from the policy proxy.ts put on the request (where Next reads it for its scripts too). */
async function styleNonce(): Promise<string | undefined> {
  return /'nonce-([^']+)'/.exec((await headers()).get(CSP_HEADER) ?? '')?.[1];
}

export async function generateMetadata() {
  return { title: (await getT())('scheduling.title') };
}

export default async function SchedulingPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [t, staff, query] = await Promise.all([getT(), requireCapability('scheduling', '/scheduling'), searchParams]);
  // The calendar's view from the address (?dia=…&vista=…&agenda=…); what is not valid there is ignored.
  const address = readCalendarAddress((name) => [query[name]].flat()[0]);
  // The free slots and recent reservations, from the same loaders as the API's operations. The exam
  // listing stays with the browser: it is small and kept for minutes, and it is the one list whose
  // absence (a back-end without one answers 501) changes the form itself, which is decided there.
  const freeKey = schedulingKeys.slots({});
  const answers = await prefetchedAnswers([
    { queryKey: freeKey, load: () => listFreeSlots(freeSlotQuerySchema.parse({ limite: FREE_SLOTS_LIMIT }), staff) },
    { queryKey: schedulingKeys.recent, load: () => recentReservations(staff, RECENT_RESERVATIONS_LIMIT) },
  ]);
  // The calendar's first view arrives with the page: the agendas of its window (the address's day,
  // else that of the soonest free slot above), then the slots of those it shows first (the columns
  // a day can show at most, or the week's one agenda), under the keys the calendar reads them by.
  const freeSlots = answers.find((answer) => answer.queryKey === freeKey)?.data as FreeSlot[] | undefined;
  const { de, ate } = windowOf(address.view, address.day ?? openingDay(freeSlots));
  const agendasKey = schedulingKeys.agendas({ de, ate });
  const [agendaAnswer] = await prefetchedAnswers([{ queryKey: agendasKey, load: () => listAgendas({ de, ate }, staff) }]);
  const codes = ((agendaAnswer?.data as Agenda[] | undefined) ?? []).map((agenda) => agenda.CD_AGENDA);
  const firstColumns = address.agenda ? [address.agenda] : address.view === 'week' ? codes.slice(0, 1) : codes.slice(0, MAX_DAY_COLUMNS);
  const grids = agendaAnswer
    ? await prefetchedAnswers(
        firstColumns.map((cdAgenda) => ({
          queryKey: schedulingKeys.grid({ de, ate, cdAgenda }),
          load: () => listSlots(slotQuerySchema.parse({ de, ate, cdAgenda, limite: SLOT_GRID_LIMIT }), staff),
        })),
      )
    : [];
  answers.push(...(agendaAnswer ? [agendaAnswer] : []), ...grids);
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
        <StyleNonce value={await styleNonce()}>
          <ReservationWorkspace />
        </StyleNonce>
      </PrefetchedQueries>
    </>
  );
}
