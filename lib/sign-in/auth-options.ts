import 'server-only';
import { randomUUID } from 'node:crypto';
import type { AuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { z } from 'zod';
import { getDb } from '@/lib/db/handle';
import { findStaffByEmail } from '@/lib/staff/store';
import { log, redactError } from '@/lib/log';
import { hasControlCharacters } from '@/lib/validation/text';
import { clientAddress } from '@/lib/http/client-address';
import { countAttempt, settleSuccess, signInCounters } from '@/lib/auth/login-throttle';
import { metrics } from '@/lib/observability/metrics';
import { decoySecretHash, verifySecret } from '@/lib/auth/passwords';
import { signingSecret } from '@/lib/auth/signing-secret';
import { env } from '@/lib/config/env';
import { ssoProvider, ssoSignInVerdict, SSO_PROVIDER_ID } from '@/lib/sign-in/sso';

/**
 * next-auth 4 for the staff console: e-mail and password against `staff_users` and/or the
 * hospital's OpenID Connect provider (sso.ts), JWT sessions whose `sub` is the staff user's id, signed with the same secret that staff-session.ts decodes with.
 * Each session also carries the account's session version, read in the same row as the password
 * (or by sso.ts), so a password change an instant later still ends it, and an id of its own for
 * the password change's throttle (login-throttle.ts).
 */
const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/** Thrown from authorize(); next-auth passes the message to the sign-in form as `error`. */
const SIGN_IN_LOCKED = 'locked';
/** Thrown for any unexpected failure; the form shows its generic "could not sign in". */
const SIGN_IN_UNAVAILABLE = 'unavailable';

const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254)
    .refine((value) => !hasControlCharacters(value)),
  password: z.string().max(1024),
});

/**
 * next-auth puts a thrown error's message into the sign-in page's URL: only our own fixed codes may
 * reach it, never an exception's text (a database error quoted SQL there).
 */
async function authorizeSafely(credentials: Record<string, string> | undefined, headers: Record<string, unknown> | undefined) {
  try {
    return await authorize(credentials, headers);
  } catch (error) {
    if (error instanceof Error && error.message === SIGN_IN_LOCKED) throw error;
    log.error('auth.sign_in_error', redactError(error));
    throw new Error(SIGN_IN_UNAVAILABLE);
  }
}

async function authorize(credentials: Record<string, string> | undefined, headers: Record<string, unknown> | undefined) {
  const parsed = credentialsSchema.safeParse(credentials ?? {});
  if (!parsed.success || !parsed.data.email) return null;
  const { email, password } = parsed.data;
  const address = clientAddress(headers);
  const counters = signInCounters(email, address);
  // Counted before the password is checked, so parallel guesses cannot outrun the limit.
  const attempt = await countAttempt(counters);
  if (!attempt.allowed) {
    // The address only: an e-mail someone typed is personal data, and may be a mistyped password.
    metrics().throttled.inc({ endpoint: 'sign_in' });
    log.warn('auth.sign_in_throttled', { address, retryAfterSeconds: attempt.retryAfterSeconds });
    throw new Error(SIGN_IN_LOCKED);
  }
  const row = await findStaffByEmail(await getDb(), email);
  // Unknown e-mails cost one scrypt too, and count as failures too: nothing tells them apart.
  const valid = await verifySecret(password, row ? row.passwordHash : await decoySecretHash());
  if (!row || !valid || row.disabledAt !== null) {
    log.info('auth.sign_in_failed', { address });
    return null;
  }
  await settleSuccess(counters);
  log.info('auth.sign_in', { userId: row.id });
  return { id: row.id, name: row.name, email: row.email, sessionVersion: row.sessionVersion };
}

/** E-mail and password unless PASSWORD_SIGN_IN=false; the hospital's OpenID Connect provider when configured. */
function signInProviders(): AuthOptions['providers'] {
  const { sso, PASSWORD_SIGN_IN } = env();
  const providers: AuthOptions['providers'] = [];
  if (PASSWORD_SIGN_IN) {
    providers.push(
      CredentialsProvider({
        name: 'credentials',
        credentials: { email: { type: 'email' }, password: { type: 'password' } },
        authorize: (credentials, request) => authorizeSafely(credentials, request?.headers),
      }),
    );
  }
  if (sso) providers.push(ssoProvider(sso));
  return providers;
}

/**
 * A function, not a constant: the secret may be generated on first start in DATA_DIR, which must
 * not happen while `next build` imports this module.
 */
export function authOptions(): AuthOptions {
  return {
    secret: signingSecret(),
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: '/sign-in', error: '/sign-in' },
    providers: signInProviders(),
    callbacks: {
      signIn: ({ user, account }) => (account?.provider === SSO_PROVIDER_ID ? ssoSignInVerdict(user) : true),
      // `user` only at sign-in; later calls (GET /api/auth/session) keep the token's claims as they are.
      jwt: ({ token, user }) => (user ? { ...token, sessionVersion: user.sessionVersion ?? 0, sessionId: randomUUID() } : token),
    },
    logger: {
      // next-auth's own logger prints whole error objects; keep to one line without request data.
      error: (code) => log.error('auth.next_auth_error', { code }),
      // NEXTAUTH_URL unset is a supported set-up (sign-in on whatever host the browser uses, README
      // "Run it"): next-auth warns of it after each sign-in, and an alert on it would fire for nothing.
      warn: (code) => (code === 'NEXTAUTH_URL' ? undefined : log.warn('auth.next_auth_warning', { code })),
      debug: () => undefined,
    },
  };
}
