import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, STRICT_URL_POLICY } from '../url-policy';
import { normalizeWebhookUrl } from '../url-form';
import { natsKind } from './nats';

const development = { allowHttp: true, allowPrivateTargets: true };

describe('NATS JetStream targets under the URL policy', () => {
  it('accepts them over TLS on public hosts', () => {
    expect(checkWebhookUrl('tls://nats.parceiro.com.br:4222?subject=parceiro.avaliacoes')).toBeUndefined();
  });

  it.each([
    ['nats://nats.parceiro.com.br?subject=x', 'urlTlsRequired'],
    ['tls://[::1]:4222?subject=x', 'urlPrivateTarget'],
    ['tls://metadata.google.internal?subject=x', 'urlPrivateTarget'],
    ['tls://nats.parceiro.com.br', 'urlBrokerDestination'],
    ['tls://nats.parceiro.com.br?subject=a.*', 'urlBrokerDestination'],
    ['tls://nats.parceiro.com.br?subject=a.>', 'urlBrokerDestination'],
    ['tls://nats.parceiro.com.br?subject=a&subject=b', 'urlBrokerDestination'],
    ['tls://nats.parceiro.com.br/caminho?subject=a', 'urlBrokerDestination'],
    ['tls://nats.parceiro.com.br?subject=a#x', 'urlBrokerDestination'],
  ])('refuses %s (%s)', (url, violation) => {
    expect(checkWebhookUrl(url, STRICT_URL_POLICY)).toBe(violation);
  });

  it('lets development use plain connections to loopback servers', () => {
    expect(checkWebhookUrl('nats://127.0.0.1:4222?subject=a.b', development)).toBeUndefined();
  });
});

describe('reading a NATS target', () => {
  it('takes the subject from the query, the host as https reads it and the default port', () => {
    expect(natsKind.parse('tls://[2001:db8::1]:4333?subject=a.b')).toEqual({
      kind: 'nats',
      tls: true,
      hostname: '2001:db8::1',
      port: 4333,
      subject: 'a.b',
    });
    expect(natsKind.parse('nats://127.0.0.1?subject=a')).toMatchObject({ tls: false, port: 4222 });
    expect(natsKind.parse('https://receptor.exemplo.com.br/')).toBeUndefined();
  });

  it('stores the canonical form', () => {
    expect(normalizeWebhookUrl('tls://NATS.parceiro.com.br?subject=a')).toBe('tls://nats.parceiro.com.br/?subject=a');
  });
});
