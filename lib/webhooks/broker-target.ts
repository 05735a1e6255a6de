/**
 * A broker target (issue 29), as a configuration's `url` names it. Pure (no server imports): the
 * URL policy, the console's editor and the destinations read targets the same way.
 *
 * - RabbitMQ (AMQP 0-9-1): `amqps://host[:port]/vhost?exchange=E&routingKey=K` (`amqp://` without
 *   TLS, development only). No `exchange` is the default exchange (routing key = queue name); the
 *   path is the virtual host, percent-encoded (`/%2F` or none is `/`).
 * - NATS JetStream: `tls://host[:port]?subject=S` (`nats://` without TLS, development only).
 *
 * The broker's user and password are never in the URL: they are the configuration's `credenciais`,
 * stored encrypted.
 */

export type BrokerKind = 'amqp' | 'nats';

type Scheme = { kind: BrokerKind; tls: boolean; defaultPort: number; params: readonly string[] };

/** Each broker scheme; `special` is the WHATWG scheme whose host parsing (IPv4 forms, IDNA) it borrows. */
export const BROKER_SCHEMES: Readonly<Record<string, Scheme>> = {
  'amqp:': { kind: 'amqp', tls: false, defaultPort: 5672, params: ['exchange', 'routingKey'] },
  'amqps:': { kind: 'amqp', tls: true, defaultPort: 5671, params: ['exchange', 'routingKey'] },
  'nats:': { kind: 'nats', tls: false, defaultPort: 4222, params: ['subject'] },
  'tls:': { kind: 'nats', tls: true, defaultPort: 4222, params: ['subject'] },
};

export type BrokerTarget = {
  kind: BrokerKind;
  tls: boolean;
  /** Canonical host (WHATWG, as for https): IPv6 without brackets. */
  hostname: string;
  port: number;
  /** AMQP: the virtual host ('/' by default). */
  vhost: string;
  /** AMQP: the exchange ('' is the default exchange). */
  exchange: string;
  /** AMQP: the routing key. */
  routingKey: string;
  /** NATS: the subject published to (a JetStream stream must capture it). */
  subject: string;
};

const SCHEME = /^([a-z][a-z0-9+.-]*:)\/\//i;

export function brokerSchemeOf(raw: string): Scheme | undefined {
  const scheme = SCHEME.exec(raw)?.[1]?.toLowerCase();
  return scheme ? BROKER_SCHEMES[scheme] : undefined;
}

/**
 * The URL with its scheme swapped for http(s), so the WHATWG parser canonicalises the host as it
 * does for a receiver (`amqp://2130706433` is 127.0.0.1): a non-special scheme's host is opaque.
 */
export function asSpecialUrl(raw: string): URL | undefined {
  const scheme = brokerSchemeOf(raw);
  if (!scheme) return undefined;
  try {
    return new URL(raw.replace(SCHEME, scheme.tls ? 'https://' : 'http://'));
  } catch {
    return undefined;
  }
}

/** A NATS subject to publish to: dot-separated tokens, no wildcard, space or control character. */
const NATS_SUBJECT = /^[A-Za-z0-9_\-$]+(\.[A-Za-z0-9_\-$]+)*$/;
/** An AMQP short string (exchange, routing key): at most 255 bytes; printable here. */
const AMQP_NAME = /^[\u0021-\u007e]{0,255}$/;

/** Why a broker URL's destination part (path, query) is wrong, or undefined when it is right. */
export function brokerDestinationProblem(raw: string): 'urlBrokerDestination' | undefined {
  const scheme = brokerSchemeOf(raw);
  const url = asSpecialUrl(raw);
  if (!scheme || !url) return 'urlBrokerDestination';
  if (url.hash !== '') return 'urlBrokerDestination';
  const names = [...url.searchParams.keys()];
  if (names.some((name) => !scheme.params.includes(name)) || new Set(names).size !== names.length) return 'urlBrokerDestination';
  if (scheme.kind === 'nats') {
    if (url.pathname !== '/' && url.pathname !== '') return 'urlBrokerDestination';
    return NATS_SUBJECT.test(url.searchParams.get('subject') ?? '') ? undefined : 'urlBrokerDestination';
  }
  const routingKey = url.searchParams.get('routingKey');
  const exchange = url.searchParams.get('exchange') ?? '';
  if (routingKey === null || !AMQP_NAME.test(routingKey) || !AMQP_NAME.test(exchange)) return 'urlBrokerDestination';
  // One path segment at most: the virtual host.
  return url.pathname.slice(1).includes('/') ? 'urlBrokerDestination' : undefined;
}

/** The parts of a broker target, or undefined for any other URL (or a broken one). */
export function parseBrokerTarget(raw: string): BrokerTarget | undefined {
  const scheme = brokerSchemeOf(raw);
  const url = asSpecialUrl(raw);
  if (!scheme || !url) return undefined;
  let vhost = '/';
  try {
    vhost = decodeURIComponent(url.pathname.slice(1)) || '/';
  } catch {
    return undefined;
  }
  return {
    kind: scheme.kind,
    tls: scheme.tls,
    hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: Number(url.port) || scheme.defaultPort,
    vhost,
    exchange: url.searchParams.get('exchange') ?? '',
    routingKey: url.searchParams.get('routingKey') ?? '',
    subject: url.searchParams.get('subject') ?? '',
  };
}

/** The target as stored: its scheme lower-case, the host canonical (as for a receiver URL). */
export function normalizeBrokerUrl(raw: string): string {
  const scheme = SCHEME.exec(raw)?.[1]?.toLowerCase();
  const url = asSpecialUrl(raw);
  if (!scheme || !url) return raw;
  return url.href.replace(SCHEME, `${scheme}//`);
}

/** Whether a target URL names a broker. */
export function isBrokerUrl(raw: string): boolean {
  return brokerSchemeOf(raw) !== undefined;
}
