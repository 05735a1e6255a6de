import { SetPasswordForm } from '@/components/staff/set-password-form';
import { LanguageSwitch } from '@/components/console/language-switch';
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
    <div className="flex min-h-screen flex-col">
      <div className="flex justify-end px-4 py-3 sm:px-6">
        <LanguageSwitch />
      </div>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:pt-16">
        <div className="w-full max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-xl font-semibold">{t('password.setTitle')}</h1>
          <p className="mt-1 mb-5 text-sm text-slate-600">{t('password.rules')}</p>
          <SetPasswordForm token={typeof token === 'string' ? token : ''} />
        </div>
      </main>
    </div>
  );
}
