import 'server-only';
import { decode } from 'next-auth/jwt';
import { getDb } from '@/lib/data';
import { findStaffById } from '@/lib/staff/repository';
import { STAFF_ROLES, type StaffRole } from './roles';
import { signingSecret } from './signing-secret';
import type { StaffPrincipal } from './principal';

/**
 * The staff user behind a console session cookie, read from a standard Request (no Next-only
 * APIs), so API routes serve the browser and programmatic callers through the same code. Roles are
 * read from the database on every call: a role removed or an account disabled by an admin takes
 * effect at once.
 */
export const SESSION_COOKIE_NAMES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];

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

export async function staffFromSession(request: Request): Promise<StaffPrincipal | undefined> {
  const token = sessionToken(request);
  if (!token) return undefined;
  const payload = await decode({ token, secret: signingSecret() }).catch(() => null);
  const userId = payload?.sub;
  if (!userId) return undefined;
  return staffById(userId);
}

export async function staffById(userId: string): Promise<StaffPrincipal | undefined> {
  const row = await findStaffById(await getDb(), userId);
  // A disabled user's open sessions end with their next request.
  if (!row || row.disabledAt !== null) return undefined;
  return { kind: 'staff', userId: row.id, email: row.email, name: row.name, roles: parseRoles(row.roles), sso: row.ssoSubject !== null };
}

export function parseRoles(stored: string): StaffRole[] {
  return stored.split(',').filter((role): role is StaffRole => (STAFF_ROLES as readonly string[]).includes(role));
}
