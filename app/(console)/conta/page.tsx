import { PageHeader } from '@/components/ui/card';
import { ChangePasswordForm } from '@/components/staff/change-password-form';
import { Alert } from '@/components/ui/alert';
import { currentStaff } from '@/lib/auth/console-session';
import { getT } from '@/lib/i18n/server';

export async function generateMetadata() {
  return { title: (await getT())('password.changeTitle') };
}

/**
 * Every signed-in staff user: their own password. (The console layout already requires a session.)
 * Single sign-on accounts have none here: the identity provider keeps it.
 */
export default async function AccountPage() {
  const t = await getT();
  const staff = await currentStaff();
  if (staff?.sso) {
    return (
      <>
        <PageHeader title={t('password.changeTitle')} />
        <Alert tone="info">{t('password.ssoManaged')}</Alert>
      </>
    );
  }
  return (
    <>
      <PageHeader title={t('password.changeTitle')} description={t('password.rules')} />
      <ChangePasswordForm />
    </>
  );
}
