import { PageHeader } from '@/components/ui/card';
import { StaffAdmin } from '@/components/staff/staff-admin';
import { requireCapability } from '@/lib/auth/console-session';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('staffAdmin.title') };
}

export default async function StaffPage() {
  const t = await getT();
  // Who is looking: their own row offers no change the server would refuse them.
  const staff = await requireCapability('administration', '/admin/equipe');
  return (
    <>
      <PageHeader title={t('staffAdmin.title')} description={t('staffAdmin.intro')} />
      <StaffAdmin currentUserId={staff.userId} />
    </>
  );
}
