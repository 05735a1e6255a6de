import { describe, expect, it } from 'vitest';
import { sameLoginTarget } from './broker-credentials';

/** A broker login belongs to its broker (issue 43): what a PUT may change and keep it. */
describe('sameLoginTarget', () => {
  const base = 'amqps://broker.parceiro.exemplo.com.br/avaliacoes?exchange=e&routingKey=k';

  it('keeps the login for another exchange, routing key or subject on the same broker', () => {
    expect(sameLoginTarget(base, 'amqps://broker.parceiro.exemplo.com.br:5671/avaliacoes?routingKey=outra')).toBe(true);
    expect(sameLoginTarget('tls://nats.parceiro.exemplo.com.br?subject=a', 'tls://nats.parceiro.exemplo.com.br:4222?subject=b')).toBe(true);
  });

  it.each([
    ['another host', 'amqps://broker.atacante.exemplo.com/avaliacoes?exchange=e&routingKey=k'],
    ['another port', 'amqps://broker.parceiro.exemplo.com.br:5999/avaliacoes?exchange=e&routingKey=k'],
    ['another virtual host', 'amqps://broker.parceiro.exemplo.com.br/outro?exchange=e&routingKey=k'],
    ['no TLS any more', 'amqp://broker.parceiro.exemplo.com.br:5671/avaliacoes?exchange=e&routingKey=k'],
    ['another kind', 'tls://broker.parceiro.exemplo.com.br:5671?subject=s'],
    ['an https receiver', 'https://broker.parceiro.exemplo.com.br/avaliacoes'],
  ])('drops it for %s', (_case, url) => {
    expect(sameLoginTarget(base, url)).toBe(false);
  });
});
