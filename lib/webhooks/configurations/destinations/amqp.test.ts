import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, STRICT_URL_POLICY } from '../url-policy';
import { normalizeWebhookUrl } from '../url-form';
import { amqpKind } from './amqp';

const development = { allowHttp: true, allowPrivateTargets: true };

describe('RabbitMQ targets under the URL policy', () => {
  it('accepts them over TLS on public hosts', () => {
    expect(checkWebhookUrl('amqps://broker.parceiro.com.br/integracao?exchange=avaliacoes&routingKey=webhooks')).toBeUndefined();
    expect(checkWebhookUrl('amqps://broker.parceiro.com.br:5671?routingKey=fila')).toBeUndefined();
  });

  it.each([
    ['amqp://broker.parceiro.com.br/?routingKey=x', 'urlTlsRequired'],
    ['amqps://127.0.0.1/?routingKey=x', 'urlPrivateTarget'],
    // The host's every spelling is read as https would: 2130706433 is 127.0.0.1.
    ['amqps://2130706433/?routingKey=x', 'urlPrivateTarget'],
    ['amqps://guest:guest@broker.parceiro.com.br/?routingKey=x', 'urlCredentials'],
    ['amqps://broker.parceiro.com.br/vhost', 'urlBrokerDestination'],
    ['amqps://broker.parceiro.com.br/a/b?routingKey=x', 'urlBrokerDestination'],
    ['amqps://broker.parceiro.com.br/?routingKey=x&subject=y', 'urlBrokerDestination'],
    ['amqps://broker.parceiro.com.br/?routingKey=x#y', 'urlBrokerDestination'],
  ])('refuses %s (%s)', (url, violation) => {
    expect(checkWebhookUrl(url, STRICT_URL_POLICY)).toBe(violation);
  });

  it('lets development use plain connections to loopback brokers', () => {
    expect(checkWebhookUrl('amqp://127.0.0.1:5672/?exchange=x&routingKey=y', development)).toBeUndefined();
    expect(checkWebhookUrl('amqp://127.0.0.1:5672/?routingKey=y', { allowHttp: false, allowPrivateTargets: true })).toBe('urlTlsRequired');
  });
});

describe('reading a RabbitMQ target', () => {
  it('takes the vhost from the path, the destination from the query and the default ports', () => {
    expect(amqpKind.parse('amqps://Broker.Parceiro.com.br/int%2Fegra?exchange=ex&routingKey=rk')).toEqual({
      kind: 'amqp',
      tls: true,
      hostname: 'broker.parceiro.com.br',
      port: 5671,
      vhost: 'int/egra',
      exchange: 'ex',
      routingKey: 'rk',
    });
    expect(amqpKind.parse('amqp://127.0.0.1?routingKey=fila')).toMatchObject({ port: 5672, vhost: '/', exchange: '' });
    expect(amqpKind.parse('https://receptor.exemplo.com.br/')).toBeUndefined();
  });

  it('stores the canonical form (scheme and host lower-case, host as https reads it)', () => {
    expect(normalizeWebhookUrl('AMQPS://Broker.Parceiro.COM.br/v?routingKey=K')).toBe('amqps://broker.parceiro.com.br/v?routingKey=K');
  });
});
