import type { KindDescriptor, ParsedTarget } from './kind';
import { asSpecialUrl, endpointOf, schemeOf } from './target-url';

/**
 * RabbitMQ (AMQP 0-9-1) targets (issue 29): `amqps://host[:port]/vhost?exchange=E&routingKey=K`
 * (`amqp://` without TLS, development only). No `exchange` is the default exchange (routing key =
 * queue name); the path is the virtual host, percent-encoded (`/%2F` or none is `/`). The login is
 * the configuration's `credenciais`, never in the URL.
 */
export type AmqpTarget = ParsedTarget & {
  kind: 'amqp';
  /** The virtual host ('/' by default). */
  vhost: string;
  /** The exchange ('' is the default exchange). */
  exchange: string;
  routingKey: string;
};

const SCHEMES = [
  { scheme: 'amqps:', tls: true, defaultPort: 5671 },
  { scheme: 'amqp:', tls: false, defaultPort: 5672 },
] as const;

const PARAMS = ['exchange', 'routingKey'];
/** An AMQP short string (exchange, routing key): at most 255 bytes; printable here. */
const AMQP_NAME = /^[\u0021-\u007e]{0,255}$/;

export const amqpKind: KindDescriptor<AmqpTarget> = {
  kind: 'amqp',
  schemes: SCHEMES,
  broker: true,
  labelKey: 'webhook.kind.amqp',
  helpKeys: (plainAllowed) => (plainAllowed ? ['webhook.urlHelpAmqp', 'webhook.urlHelpPlainBrokerAllowed'] : ['webhook.urlHelpAmqp']),
  urlDescription:
    'a RabbitMQ exchange (beyond the contract), `amqps://host[:port]/vhost?exchange=E&routingKey=K` (no exchange: the default one, routing key = queue)',
  destinationProblem(url) {
    const names = [...url.searchParams.keys()];
    if (url.hash !== '' || names.some((name) => !PARAMS.includes(name)) || new Set(names).size !== names.length)
      return 'urlBrokerDestination';
    const routingKey = url.searchParams.get('routingKey');
    const exchange = url.searchParams.get('exchange') ?? '';
    if (routingKey === null || !AMQP_NAME.test(routingKey) || !AMQP_NAME.test(exchange)) return 'urlBrokerDestination';
    // One path segment at most: the virtual host.
    return url.pathname.slice(1).includes('/') ? 'urlBrokerDestination' : undefined;
  },
  parse(raw) {
    const scheme = SCHEMES.find(({ scheme }) => scheme === schemeOf(raw));
    const url = scheme && asSpecialUrl(raw, scheme);
    if (!scheme || !url) return undefined;
    let vhost: string;
    try {
      vhost = decodeURIComponent(url.pathname.slice(1)) || '/';
    } catch {
      return undefined;
    }
    return {
      kind: 'amqp',
      tls: scheme.tls,
      ...endpointOf(url, scheme),
      vhost,
      exchange: url.searchParams.get('exchange') ?? '',
      routingKey: url.searchParams.get('routingKey') ?? '',
    };
  },
  spanAttributes: (target) => ({
    'messaging.system': 'rabbitmq',
    'messaging.operation.name': 'publish',
    'messaging.destination.name': target.exchange || '(default)',
    'server.address': target.hostname,
    'server.port': target.port,
  }),
  failures: ['autenticacao-recusada', 'sem-rota', 'confirmacao-negativa', 'limite-conexoes'],
  failuresDescription:
    'RabbitMQ: `autenticacao-recusada` (login, vhost or permission refused), `sem-rota` (no exchange, or no queue for the routing key), `confirmacao-negativa` (the broker refused the message), `limite-conexoes` (the tenant’s broker connections are all in use: retried, not counted as an outage).',
  withoutCredentials: 'RabbitMQ is reached as guest',
  connectionScope: (target) => target.vhost,
};
