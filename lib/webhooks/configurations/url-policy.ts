/**
 * Where a webhook may point. Pure (no server imports): the PUT route and the console's editor run
 * the same check, so a form shows exactly the error the API would answer.
 *
 * The URL is parsed with the WHATWG URL parser, the one Node's fetch uses to deliver. It already
 * turns every spelling of an IPv4 address (2130706433, 0x7f000001, 0177.0.0.1, 127.1, full-width
 * digits, percent-encoded or trailing-dot hosts) into dotted decimal and every IPv6 address into
 * its compressed form, so the checks below only ever see the canonical host the delivery would
 * connect to. Names that merely *resolve* to a private address (DNS rebinding, nip.io) can only be
 * caught when the delivery resolves them; this save-time check does not replace that one.
 */

import { STRICT_URL_POLICY, type UrlPolicy } from '@/lib/config/url-policy';
import { hasInvisibleCharacters } from '@/lib/validation/text';
import { kindOf } from './destinations/kinds';
import { asSpecialUrl } from './destinations/target-url';

export { STRICT_URL_POLICY, type UrlPolicy };

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** Issue keys (see url-policy messages in policy-messages.ts). */
export type UrlPolicyViolation =
  | 'urlTooLong'
  | 'urlInvalid'
  | 'urlUnsafeCharacters'
  | 'urlInvisibleCharacters'
  | 'urlScheme'
  | 'urlSchemeHttpOrHttps'
  | 'urlHttpsRequired'
  | 'urlCredentials'
  | 'urlPrivateTarget'
  | 'urlTlsRequired'
  | 'urlBrokerDestination';

/** The first rule the URL breaks, or undefined when it may be saved. */
export function checkWebhookUrl(raw: string, policy: UrlPolicy = STRICT_URL_POLICY): UrlPolicyViolation | undefined {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return 'urlTooLong';
  // The WHATWG parser silently strips tabs/newlines and turns `\` into `/`; other parsers do not.
  // Refusing them keeps what we checked and what any client would connect to the same URL.
  if (/[\u0000-\u0020\u007f\\]/.test(raw)) return 'urlUnsafeCharacters';
  // IDNA mapping drops zero-width characters and soft hyphens from a host name without a word
  // (`exa\u200Bmple.com` is example.com) and refuses bidi controls: what staff read would not be
  // where deliveries go. Refused anywhere in the URL.
  if (hasInvisibleCharacters(raw)) return 'urlInvisibleCharacters';
  const kind = kindOf(raw);
  if (kind?.descriptor.broker) return checkBrokerUrl(raw, kind, policy);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'urlInvalid';
  }
  // Where plain http is allowed the message names both schemes; elsewhere only https:// is right.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return policy.allowHttp ? 'urlSchemeHttpOrHttps' : 'urlScheme';
  // The target before the scheme: `http://127.0.0.1/` must say why it can never be allowed, not
  // just "use https" (which would be refused next anyway).
  if (!policy.allowPrivateTargets && isPrivateHost(url.hostname)) return 'urlPrivateTarget';
  if (url.protocol === 'http:' && !policy.allowHttp) return 'urlHttpsRequired';
  // `https://@host` has empty credentials the parser drops; any `@` in the authority is refused.
  if (url.username !== '' || url.password !== '' || authorityOf(raw).includes('@')) return 'urlCredentials';
  // Port 0 cannot be connected to; the parser keeps it, so it is refused here.
  if (url.port === '0') return 'urlInvalid';
  return undefined;
}

/**
 * A broker target: the receiver's rules on its host (checked in its http(s) spelling, so every
 * IPv4 form is canonical), TLS unless development allows plain connections, no credentials in the
 * URL (they are the configuration's `credenciais`), and the destination its kind's descriptor
 * accepts (an exchange and routing key, a subject…).
 */
function checkBrokerUrl(
  raw: string,
  { descriptor, scheme }: NonNullable<ReturnType<typeof kindOf>>,
  policy: UrlPolicy,
): UrlPolicyViolation | undefined {
  const url = asSpecialUrl(raw, scheme);
  if (!url || url.hostname === '') return 'urlInvalid';
  if (!policy.allowPrivateTargets && isPrivateHost(url.hostname)) return 'urlPrivateTarget';
  if (!scheme.tls && !policy.allowHttp) return 'urlTlsRequired';
  if (url.username !== '' || url.password !== '' || authorityOf(raw).includes('@')) return 'urlCredentials';
  if (url.port === '0') return 'urlInvalid';
  return descriptor.destinationProblem(url);
}

/** The text between `scheme://` and the path, query or fragment. */
function authorityOf(raw: string): string {
  const start = raw.indexOf('//');
  if (start === -1) return '';
  const rest = raw.slice(start + 2);
  const end = rest.search(/[/?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/** True for a canonical WHATWG hostname that names this machine, a private network or a metadata service. */
export function isPrivateHost(hostname: string): boolean {
  if (hostname.startsWith('[')) return isPrivateIpv6(parseIpv6(hostname.slice(1, -1)));
  const ipv4 = parseIpv4(hostname);
  if (ipv4 !== undefined) return isPrivateIpv4(ipv4);
  return isPrivateName(hostname);
}

// ---------------------------------------------------------------------------------------------
// Host names

/** Cloud metadata services reachable by name (AWS, GCP, Azure, Alibaba, Oracle, DigitalOcean…). */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.oraclecloud.com',
]);

/** Suffixes that only resolve inside a private network (RFC 6761, RFC 6762, RFC 8375, cloud DNS). */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'home.arpa', 'localdomain', 'corp'];

function isPrivateName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  if (name === '' || METADATA_NAMES.has(name)) return true;
  // A single label (`intranet`, `metadata`) is completed by the resolver's search domains: internal.
  if (!name.includes('.')) return true;
  return PRIVATE_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

// ---------------------------------------------------------------------------------------------
// IPv4

function parseIpv4(hostname: string): number | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(hostname);
  if (!match) return undefined;
  const octets = match.slice(1).map(Number);
  if (octets.some((octet) => octet > 255)) return undefined;
  return octets.reduce((value, octet) => value * 256 + octet, 0);
}

type Cidr4 = readonly [base: string, prefix: number];

/** Every IPv4 range that is not the public internet (RFC 6890 special-purpose registry). */
const NON_PUBLIC_IPV4: readonly Cidr4[] = [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 reaches the local host
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (incl. 192.0.0.192 Oracle metadata)
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. 255.255.255.255 broadcast
];

const NON_PUBLIC_IPV4_RANGES = NON_PUBLIC_IPV4.map(([base, prefix]) => {
  const size = 2 ** (32 - prefix);
  const start = parseIpv4(base) ?? 0;
  return { start, end: start + size - 1 };
});

function isPrivateIpv4(address: number): boolean {
  return NON_PUBLIC_IPV4_RANGES.some(({ start, end }) => address >= start && address <= end);
}

// ---------------------------------------------------------------------------------------------
// IPv6 (the WHATWG serializer gives lowercase hex groups with at most one `::`, never dotted quads)

function parseIpv6(text: string): number[] | undefined {
  const [head = '', tail, extra] = text.split('::');
  if (extra !== undefined) return undefined;
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const all = [...left, ...new Array<number>(missing).fill(0), ...right];
  return all.some((group) => !Number.isInteger(group) || group < 0 || group > 0xffff) ? undefined : all;
}

function isPrivateIpv6(groups: number[] | undefined): boolean {
  if (!groups) return true; // not an address we understand: refuse rather than guess
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embeddedIpv4 = g6 * 65_536 + g7;
  const zeroPrefix = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  // ::ffff:a.b.c.d (IPv4-mapped) and ::ffff:0:a.b.c.d (IPv4-translated) reach the embedded IPv4.
  if (zeroPrefix && ((g4 === 0 && g5 === 0xffff) || (g4 === 0xffff && g5 === 0))) return isPrivateIpv4(embeddedIpv4);
  // 64:ff9b::a.b.c.d, the well-known NAT64 prefix, reaches the embedded IPv4 too.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPrivateIpv4(embeddedIpv4);
  // 2002:wwxx:yyzz::/48 (6to4) wraps the IPv4 wwxx.yyzz.
  if (g0 === 0x2002) return isPrivateIpv4(g1 * 65_536 + g2);
  // Only global unicast (2000::/3) is public; that excludes ::, ::1, IPv4-compatible ::a.b.c.d,
  // ULA fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8 and the rest.
  if ((g0 & 0xe000) !== 0x2000) return true;
  // Inside 2000::/3: IETF assignments 2001::/23 (Teredo, ORCHID…), documentation 2001:db8::/32 and 3fff::/20.
  if (g0 === 0x2001 && ((g1 & 0xfe00) === 0 || g1 === 0x0db8)) return true;
  if (g0 === 0x3fff && (g1 & 0xf000) === 0) return true;
  return false;
}
