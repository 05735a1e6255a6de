import { PageHeader } from '@/components/ui/card';
import { ChangePasswordForm } from '@/components/staff/change-password-form';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('password.changeTitle') };
}

/** Every signed-in staff user: their own password. (The console layout already requires a session.) */
export default async function AccountPage() {
  const t = await getT();
  return (
    <>
      <PageHeader title={t('password.changeTitle')} description={t('password.rules')} />
      <ChangePasswordForm />
    </>
  );
}
