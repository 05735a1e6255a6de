import { ConfirmContactForm } from '@/components/webhooks/confirm-contact-form';
import { LinkPage } from '@/components/auth/link-page';
import { getT } from '@/lib/i18n/server';

export const dynamic = 'force-dynamic';

export async function generateMetadata() {
  return { title: (await getT())('contact.confirmTitle') };
}

/**
 * The page the link e-mailed to a new technical contact opens: no session, the link's token is the
 * credential. Opening it confirms nothing (mail scanners fetch links); its button does.
 */
export default async function ConfirmContactPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await searchParams;
  const t = await getT();
  return (
    <LinkPage title={t('contact.confirmTitle')} intro={t('contact.confirmIntro')}>
      <ConfirmContactForm token={typeof token === 'string' ? token : ''} />
    </LinkPage>
  );
}
