import 'server-only';
import { env } from '@/lib/config/env';
import { fromTrustedProxy } from './client-address';

/**
 * True when a browser request was sent by a page of this same origin. Browsers send Origin on
 * every non-GET fetch; Sec-Fetch-Site is the fallback for the few that omit it. A request with
 * neither is not from a browser page we served, so it is refused.
 *
 * The Origin must match scheme, host and port (URL.origin) of either the public URL (NEXTAUTH_URL)
 * or the URL this request reached: `http://` + Host, or, only when the peer is a trusted proxy,
 * X-Forwarded-Proto + X-Forwarded-Host. A forwarded header from anyone else is not believed.
 */
export function isSameOrigin(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return request.headers.get('sec-fetch-site') === 'same-origin';
  return origin !== 'null' && acceptedOrigins(request).includes(origin);
}

function acceptedOrigins(request: Request): string[] {
  const reached = reachedOrigin(request);
  return [env().NEXTAUTH_URL, reached].filter((origin): origin is string => origin !== undefined);
}

/**
 * The origin this request reached: `http://` + Host, or, only when the peer is a trusted proxy,
 * X-Forwarded-Proto + X-Forwarded-Host. (Not request.url: the standalone server names itself there.)
 */
function reachedOrigin(request: Request): string | undefined {
  const first = (name: string) => request.headers.get(name)?.split(',')[0]?.trim() || undefined;
  const trusted = fromTrustedProxy(request.headers);
  const scheme = (trusted && first('x-forwarded-proto')) || 'http';
  const host = (trusted && first('x-forwarded-host')) || first('host');
  if (!host) return undefined;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return undefined; // A Host that is not a host name names no origin.
  }
}

/**
 * Where one-time links point: the public URL when configured, else the origin the admin's browser
 * used (admin writes pass the same-origin check, so that Host is the one their page came from).
 */
export function linkOrigin(request: Request): string {
  return env().NEXTAUTH_URL ?? reachedOrigin(request) ?? new URL(request.url).origin;
}
