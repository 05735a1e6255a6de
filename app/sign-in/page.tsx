import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { SsoSignInButton } from '@/components/auth/sso-sign-in-button';
import { Alert } from '@/components/ui/alert';
import { env } from '@/lib/config/env';
import { SSO_PROVIDER_ID, type SsoRefusal } from '@/lib/sign-in/sso';
import type { MessageKey } from '@/lib/i18n';
import { EntryCard, EntryFrame } from '@/components/auth/entry-frame';
import { currentStaff, homePathFor } from '@/lib/auth/console-session';
import { getT } from '@/lib/i18n/server';
import { safeReturnPath } from '@/lib/http/safe-return-path';

export const dynamic = 'force-dynamic';

export async function generateMetadata() {
  return { title: (await getT())('signIn.title') };
}

/**
 * What the page says about an `?error=` it was sent back with: a refused single sign-on (sso.ts)
 * or any of next-auth's own OAuth errors (provider down, state mismatch, cancelled…).
 */
const SSO_ERRORS: Record<SsoRefusal, MessageKey> = {
  SsoNoRole: 'signIn.ssoNoRole',
  SsoNoEmail: 'signIn.ssoNoEmail',
  SsoDisabled: 'signIn.ssoDisabled',
  SsoConflict: 'signIn.ssoConflict',
  SsoUnverifiedEmail: 'signIn.ssoUnverifiedEmail',
};

function firstParam(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Only same-site paths: a callbackUrl pointing elsewhere would make sign-in an open redirect. */
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const staff = await currentStaff();
  const returnTo = safeReturnPath(params.callbackUrl);
  if (staff) redirect(returnTo ?? homePathFor(staff));
  const t = await getT();
  const notice = params.signedOut ? t('signIn.signedOut') : params.expired ? t('signIn.expired') : undefined;
  const errorCode = firstParam(params.error);
  // Own keys only: `?error=constructor` must not find Object.prototype's.
  const ssoError = errorCode
    ? Object.hasOwn(SSO_ERRORS, errorCode)
      ? SSO_ERRORS[errorCode as SsoRefusal]
      : 'signIn.ssoFailed'
    : undefined;
  const { sso, PASSWORD_SIGN_IN } = env();
  return (
    <EntryFrame>
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2">
          <span aria-hidden className="inline-block h-8 w-8 rounded bg-indigo-700 text-center text-sm leading-8 font-semibold text-white">
            IC
          </span>
          <span className="text-lg font-semibold">{t('app.name')}</span>
        </div>
        <EntryCard title={t('signIn.title')} intro={t(PASSWORD_SIGN_IN ? 'signIn.subtitle' : 'signIn.ssoSubtitle')}>
          {ssoError ? (
            <Alert tone="danger" role="alert" className="mb-4">
              {t(ssoError)}
            </Alert>
          ) : null}
          {sso ? (
            <SsoSignInButton providerId={SSO_PROVIDER_ID} name={sso.displayName} returnTo={returnTo} primary={!PASSWORD_SIGN_IN} />
          ) : null}
          {sso && PASSWORD_SIGN_IN ? (
            <p className="my-4 flex items-center gap-3 text-xs text-slate-600 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200">
              {t('signIn.or')}
            </p>
          ) : null}
          {PASSWORD_SIGN_IN ? <SignInForm returnTo={returnTo} notice={notice} /> : null}
          {!PASSWORD_SIGN_IN && notice && !ssoError ? (
            <Alert tone="info" role="status" className="mt-4">
              {notice}
            </Alert>
          ) : null}
        </EntryCard>
      </div>
    </EntryFrame>
  );
}
