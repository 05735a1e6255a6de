import { PageHeader } from '@/components/ui/card';
import { ReservationWorkspace } from '@/components/scheduling/reservation-workspace';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('scheduling.title') };
}

export default async function SchedulingPage() {
  const t = await getT();
  return (
    <>
      <PageHeader title={t('scheduling.title')} description={t('scheduling.intro')} />
      <ReservationWorkspace />
    </>
  );
}
