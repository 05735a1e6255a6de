import { ConfirmContactForm } from '@/components/webhooks/confirm-contact-form';
import { LanguageSwitch } from '@/components/console/language-switch';
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
    <div className="flex min-h-screen flex-col">
      <div className="flex justify-end px-4 py-3 sm:px-6">
        <LanguageSwitch />
      </div>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:pt-16">
        <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-xl font-semibold">{t('contact.confirmTitle')}</h1>
          <p className="mt-1 mb-5 text-sm text-slate-600">{t('contact.confirmIntro')}</p>
          <ConfirmContactForm token={typeof token === 'string' ? token : ''} />
        </div>
      </main>
    </div>
  );
}
