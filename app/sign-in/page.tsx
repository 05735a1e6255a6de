import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { LanguageSwitch } from '@/components/console/language-switch';
import { currentStaff, homePathFor } from '@/lib/auth/console-session';
import { getT } from '@/lib/i18n/server';
import { safeReturnPath } from '@/lib/http/safe-return-path';

export const dynamic = 'force-dynamic';

export async function generateMetadata() {
  return { title: (await getT())('signIn.title') };
}

/** Only same-site paths: a callbackUrl pointing elsewhere would make sign-in an open redirect. */
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const staff = await currentStaff();
  const returnTo = safeReturnPath(params.callbackUrl);
  if (staff) redirect(returnTo ?? homePathFor(staff));
  const t = await getT();
  const notice = params.signedOut ? t('signIn.signedOut') : params.expired ? t('signIn.expired') : undefined;
  return (
    <div className="flex min-h-screen flex-col">
      <div className="flex justify-end px-4 py-3 sm:px-6">
        <LanguageSwitch />
      </div>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:pt-16">
        <div className="w-full max-w-sm">
          <div className="mb-6 flex items-center gap-2">
            <span aria-hidden className="inline-block h-8 w-8 rounded bg-indigo-700 text-center text-sm leading-8 font-semibold text-white">
              IC
            </span>
            <span className="text-lg font-semibold">{t('app.name')}</span>
          </div>
          <div className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
            <h1 className="text-xl font-semibold">{t('signIn.title')}</h1>
            <p className="mt-1 mb-5 text-sm text-slate-600">{t('signIn.subtitle')}</p>
            <SignInForm returnTo={returnTo} notice={notice} />
          </div>
        </div>
      </main>
    </div>
  );
}
