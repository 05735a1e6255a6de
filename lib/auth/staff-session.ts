import 'server-only';
import { decode, encode, type JWT } from 'next-auth/jwt';
import { getDb } from '@/lib/db/handle';
import { STAFF_ROLES, type StaffRole } from '@/lib/config/staff-roles';
import { accountLookups } from './account-lookups';
import { signingSecret } from './signing-secret';
import type { ConsoleSession, StaffPrincipal } from './principal';

/**
 * The staff user behind a console session cookie, read from a standard Request (no Next-only
 * APIs), so API routes serve the browser and programmatic callers through the same code. Roles are
 * read from the database on every call: a role removed or an account disabled by an admin takes
 * effect at once.
 *
 * The session token carries the account's session version at sign-in (auth-options.ts); the
 * account's row, read anyway for the roles, must still hold that version. A password change or
 * reset, disabling or linking to single sign-on bumps it (lib/staff), so every other session ends
 * at its next request on any instance: no cache, no staleness, no extra query (the same primary-key
 * read as before). A token without the claim (signed in before versions existed) is version 0.
 */
const SESSION_COOKIE_NAMES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index === -1) continue;
    if (part.slice(0, index).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(index + 1).trim());
    } catch {
      return undefined; // a cookie that does not decode is no session: 401, not 500
    }
  }
  return undefined;
}

/** next-auth splits large session cookies into `name.0`, `name.1`, …; ours are small but be exact. */
function sessionToken(request: Request): string | undefined {
  for (const name of SESSION_COOKIE_NAMES) {
    const whole = readCookie(request, name);
    if (whole) return whole;
    const chunks: string[] = [];
    for (let i = 0; ; i++) {
      const chunk = readCookie(request, `${name}.${i}`);
      if (chunk === undefined) break;
      chunks.push(chunk);
    }
    if (chunks.length > 0) return chunks.join('');
  }
  return undefined;
}

/** The session a decoded token stands for: its id and version, as sign-in wrote them. */
function consoleSessionOf(payload: JWT): ConsoleSession {
  const { sessionId, sessionVersion } = payload;
  return {
    id: typeof sessionId === 'string' ? sessionId : '',
    version: typeof sessionVersion === 'number' && Number.isSafeInteger(sessionVersion) ? sessionVersion : 0,
  };
}

async function decodedSession(request: Request): Promise<JWT | undefined> {
  const token = sessionToken(request);
  if (!token) return undefined;
  return (await decode({ token, secret: signingSecret() }).catch(() => null)) ?? undefined;
}

export async function staffFromSession(request: Request): Promise<StaffPrincipal | undefined> {
  const payload = await decodedSession(request);
  const userId = payload?.sub;
  if (!payload || !userId) return undefined;
  const session = consoleSessionOf(payload);
  const row = await accountLookups().staffAccount(await getDb(), userId);
  // A disabled user's open sessions, and those a password change ended, end with their next request.
  if (!row || row.disabledAt !== null || row.sessionVersion !== session.version) return undefined;
  return {
    kind: 'staff',
    userId: row.id,
    email: row.email,
    name: row.name,
    roles: parseRoles(row.roles),
    sso: row.ssoSubject !== null,
    session,
  };
}

/**
 * Set-Cookie values that keep the request's own session signed in at the account's new session
 * version after it changed the password: the same token, cookie name and end of life (a password
 * change does not make a session last longer). None when the request had no session cookie.
 * Attributes as next-auth sets them (HttpOnly, SameSite=Lax, Path=/, Secure with the __Secure- name).
 */
export async function renewedSessionCookies(request: Request, sessionVersion: number): Promise<string[]> {
  const payload = await decodedSession(request);
  const name = SESSION_COOKIE_NAMES.find((candidate) => readCookie(request, candidate) ?? readCookie(request, `${candidate}.0`));
  if (!payload || !name || typeof payload.exp !== 'number') return [];
  const secondsLeft = payload.exp - Math.floor(Date.now() / 1000);
  if (secondsLeft <= 0) return [];
  // iat, exp and jti are encode's to set afresh; exp from maxAge, so the end of life stays.
  const claims: JWT = { ...payload, sessionVersion };
  for (const claim of ['iat', 'exp', 'jti']) delete claims[claim];
  const token = await encode({ token: claims, secret: signingSecret(), maxAge: secondsLeft });
  const attributes = `Path=/; HttpOnly; SameSite=Lax${name.startsWith('__Secure-') ? '; Secure' : ''}`;
  const cookies = [`${name}=${token}; Expires=${new Date(payload.exp * 1000).toUTCString()}; ${attributes}`];
  // A session next-auth had split into chunks is now one cookie: the chunks go.
  for (let i = 0; readCookie(request, `${name}.${i}`) !== undefined; i++) {
    cookies.push(`${name}.${i}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; ${attributes}`);
  }
  return cookies;
}

export function parseRoles(stored: string): StaffRole[] {
  return stored.split(',').filter((role): role is StaffRole => (STAFF_ROLES as readonly string[]).includes(role));
}
