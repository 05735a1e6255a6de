import { PageHeader } from '@/components/ui/card';
import { StaffAdmin } from '@/components/staff/staff-admin';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('staffAdmin.title') };
}

export default async function StaffPage() {
  const t = await getT();
  return (
    <>
      <PageHeader title={t('staffAdmin.title')} description={t('staffAdmin.intro')} />
      <StaffAdmin />
    </>
  );
}
