import type { KindDescriptor, ParsedTarget } from './kind';
import { asSpecialUrl, endpointOf, schemeOf } from './target-url';

/**
 * NATS JetStream targets (issue 29): `tls://host[:port]?subject=S` (`nats://` without TLS,
 * development only). A JetStream stream must capture the subject. The login is the
 * configuration's `credenciais`, never in the URL.
 */
export type NatsTarget = ParsedTarget & {
  kind: 'nats';
  /** The subject published to. */
  subject: string;
};

const SCHEMES = [
  { scheme: 'tls:', tls: true, defaultPort: 4222 },
  { scheme: 'nats:', tls: false, defaultPort: 4222 },
] as const;

/** A subject to publish to: dot-separated tokens, no wildcard, space or control character. */
const SUBJECT = /^[A-Za-z0-9_\-$]+(\.[A-Za-z0-9_\-$]+)*$/;

export const natsKind: KindDescriptor<NatsTarget> = {
  kind: 'nats',
  schemes: SCHEMES,
  broker: true,
  labelKey: 'webhook.kind.nats',
  helpKeys: (plainAllowed) => (plainAllowed ? ['webhook.urlHelpNats', 'webhook.urlHelpPlainBrokerAllowed'] : ['webhook.urlHelpNats']),
  urlDescription: 'a NATS JetStream subject (beyond the contract), `tls://host[:port]?subject=S` (a stream must capture the subject)',
  destinationProblem(url) {
    const names = [...url.searchParams.keys()];
    if (url.hash !== '' || names.some((name) => name !== 'subject') || names.length !== 1) return 'urlBrokerDestination';
    if (url.pathname !== '/' && url.pathname !== '') return 'urlBrokerDestination';
    return SUBJECT.test(url.searchParams.get('subject') ?? '') ? undefined : 'urlBrokerDestination';
  },
  parse(raw) {
    const scheme = SCHEMES.find(({ scheme }) => scheme === schemeOf(raw));
    const url = scheme && asSpecialUrl(raw, scheme);
    if (!scheme || !url) return undefined;
    return { kind: 'nats', tls: scheme.tls, ...endpointOf(url, scheme), subject: url.searchParams.get('subject') ?? '' };
  },
  failures: ['autenticacao-recusada', 'sem-rota', 'confirmacao-negativa', 'limite-conexoes'],
  failuresDescription:
    'NATS JetStream: `autenticacao-recusada` (login refused), `sem-rota` (no stream takes the subject), `confirmacao-negativa` (the stream refused the message), `limite-conexoes` (as for RabbitMQ).',
  withoutCredentials: 'NATS without a login',
  spanAttributes: (target) => ({
    'messaging.system': 'nats',
    'messaging.operation.name': 'publish',
    'messaging.destination.name': target.subject,
    'server.address': target.hostname,
    'server.port': target.port,
  }),
};
