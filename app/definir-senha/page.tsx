import { SetPasswordForm } from '@/components/staff/set-password-form';
import { LinkPage } from '@/components/auth/link-page';
import { getT } from '@/lib/i18n/server';

export const dynamic = 'force-dynamic';

export async function generateMetadata() {
  return { title: (await getT())('password.setTitle') };
}

/** The page a one-time link opens: no session; the link's token is the credential. */
export default async function SetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const t = await getT();
  return (
    <LinkPage title={t('password.setTitle')} intro={t('password.rules')}>
      <SetPasswordForm token={typeof token === 'string' ? token : ''} />
    </LinkPage>
  );
}
