import type { KindScheme } from './kind';

/**
 * Reading any kind's target URL the same way. A broker scheme is not special to the WHATWG parser,
 * so its host would be opaque: the URL is read with the scheme swapped for http(s), and the host
 * is canonical as for a receiver (`<scheme>://2130706433` is 127.0.0.1).
 */
const SCHEME = /^([a-z][a-z0-9+.-]*:)\/\//i;

/** The URL's scheme, lower-case with its colon (`https:`), if it has one followed by `//`. */
export function schemeOf(raw: string): string | undefined {
  return SCHEME.exec(raw)?.[1]?.toLowerCase();
}

/** The URL parsed with `scheme`'s http(s) twin, or undefined when it does not parse. */
export function asSpecialUrl(raw: string, scheme: KindScheme): URL | undefined {
  try {
    return new URL(raw.replace(SCHEME, scheme.tls ? 'https://' : 'http://'));
  } catch {
    return undefined;
  }
}

/** The target as stored: its own scheme, lower-case, in front of the canonical rest. */
export function withScheme(url: URL, scheme: KindScheme): string {
  return url.href.replace(SCHEME, `${scheme.scheme}//`);
}

/** The canonical host without IPv6 brackets, and the port (the scheme's default when none). */
export function endpointOf(url: URL, scheme: KindScheme): { hostname: string; port: number } {
  return { hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port) || scheme.defaultPort };
}
