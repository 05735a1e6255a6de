import type { KindDescriptor, ParsedTarget } from './kind';

/**
 * HTTP(S) receivers, the first kind: an absolute `https://` URL (`http://` in development only),
 * checked by the URL policy's receiver rules (url-policy.ts); its headers are the configuration's.
 */
export type HttpTarget = ParsedTarget & { kind: 'http'; url: URL };

const SCHEMES = [
  { scheme: 'https:', tls: true, defaultPort: 443 },
  { scheme: 'http:', tls: false, defaultPort: 80 },
] as const;

export const httpKind: KindDescriptor<HttpTarget> = {
  kind: 'http',
  schemes: SCHEMES,
  broker: false,
  labelKey: 'webhook.kind.http',
  helpKeys: (plainAllowed) => [plainAllowed ? 'webhook.urlHelpHttpAllowed' : 'webhook.urlHelp'],
  urlDescription: 'an HTTP receiver, absolute https URL',
  failures: ['status-http', 'redirecionamento', 'cabecalho-invalido'],
  failuresDescription: 'HTTP: `status-http` (a non-2xx answer, see `status`), `redirecionamento`, `cabecalho-invalido`.',
  destinationProblem: () => undefined,
  parse(raw) {
    if (!URL.canParse(raw)) return undefined;
    const url = new URL(raw);
    const scheme = SCHEMES.find(({ scheme }) => scheme === url.protocol);
    if (!scheme) return undefined;
    return {
      kind: 'http',
      tls: scheme.tls,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(url.port) || scheme.defaultPort,
      url,
    };
  },
  spanAttributes: (target) => ({
    'http.request.method': 'POST',
    'url.scheme': target.url.protocol.slice(0, -1),
    'server.address': target.hostname,
    'server.port': target.port,
  }),
};
