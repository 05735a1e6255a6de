import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, describe, expect, it } from 'vitest';
import {
  closedPort,
  expectCapAcrossHosts,
  expectCapWhenAllInUse,
  expectIdleClosed,
  expectNoSocketLeft,
  expectOnlyTheCheckedAddress,
  expectPrivateAnswerRefused,
  sendingThrough,
  testMessage,
} from '@/lib/testing/destinations';
import { amqpFailure } from './sender';

/**
 * RabbitMQ targets against the real RabbitMQ (127.0.0.1:5672, guest/guest) that
 * scripts/test-all.sh starts (the sender's own tests), through the registry as an attempt uses it.
 * Each test uses its own exchange and queue, and removes them.
 */
const RABBIT = 'amqp://guest:guest@127.0.0.1:5672';
const rabbit = sendingThrough();

const allowed = { timeoutMs: 3000, allowPrivateTargets: true };
const message = (id?: string) => testMessage(id, [{ chave: 'X-Parceiro', valor: 'clinica' }]);

afterAll(() => rabbit.close());

describe('the RabbitMQ destination', () => {
  it('publishes persistent, with the signature and custom headers, and counts the confirm as delivered', async () => {
    const name = `t-${randomUUID()}`;
    const connection = await amqp.connect(RABBIT);
    const channel = await connection.createChannel();
    try {
      await channel.assertExchange(name, 'direct', { durable: false, autoDelete: false });
      await channel.assertQueue(name, { durable: false });
      await channel.bindQueue(name, name, 'parceiro');
      const sent = await rabbit.send(`amqp://127.0.0.1:5672/?exchange=${name}&routingKey=parceiro`, message('msg_a'), allowed, {
        usuario: 'guest',
        senha: 'guest',
      });
      expect(sent.verdict).toEqual({ result: 'delivered' });
      const got = await channel.get(name, { noAck: true });
      expect(got && got.properties.deliveryMode).toBe(2);
      expect(got && got.properties.messageId).toBe('msg_a');
      expect(got && got.properties.headers).toMatchObject({ 'webhook-id': 'msg_a', 'webhook-signature': 'v1,x', 'X-Parceiro': 'clinica' });
      expect(got && got.content.toString()).toBe('{"type":"webhook.teste"}');
      // Bound to no queue: the broker returns it, no route.
      const unroutable = await rabbit.send(`amqp://127.0.0.1:5672/?exchange=${name}&routingKey=ninguem`, message(), allowed, null);
      expect(unroutable.verdict).toEqual({ result: 'retry', reason: 'sem-rota', outage: false });
    } finally {
      await channel.deleteQueue(name).catch(() => undefined);
      await channel.deleteExchange(name).catch(() => undefined);
      await connection.close();
    }
  });

  it('classifies a missing exchange, refused credentials, a closed port and a private target', async () => {
    const missing = await rabbit.send(`amqp://127.0.0.1:5672/?exchange=nao-existe-${randomUUID()}&routingKey=x`, message(), allowed, null);
    expect(missing.verdict).toEqual({ result: 'retry', reason: 'sem-rota', outage: false });
    const refused = await rabbit.send('amqp://127.0.0.1:5672/?routingKey=x', message(), allowed, { usuario: 'guest', senha: 'errada' });
    expect(refused.verdict).toEqual({ result: 'retry', reason: 'autenticacao-recusada', outage: true });
    // A vhost that does not exist (or that the login may not use): RabbitMQ closes the connection
    // in answer to connection.open (issue 43: this was erro-interno).
    const noVhost = await rabbit.send(`amqp://127.0.0.1:5672/nao-existe-${randomUUID()}?routingKey=x`, message(), allowed, null);
    expect(noVhost.verdict).toEqual({ result: 'retry', reason: 'autenticacao-recusada', outage: true });
    const down = await rabbit.send(`amqp://127.0.0.1:${await closedPort()}/?routingKey=x`, message(), allowed, null);
    expect(down.verdict).toEqual({ result: 'retry', reason: 'conexao-recusada', outage: true });
    const blocked = await rabbit.send('amqp://127.0.0.1:5672/?routingKey=x', message(), { ...allowed, allowPrivateTargets: false }, null);
    expect(blocked.verdict).toEqual({ result: 'retry', reason: 'destino-bloqueado', outage: false });
  });
});

describe('the RabbitMQ destination’s failure words', () => {
  it('reads a connection cut mid-publish as a network error, never as the broker refusing the message', () => {
    // What amqplib passes a publish's callback, or the channel's close, when the socket goes away.
    for (const text of ['channel closed', 'Unexpected close', 'Channel ended, no reply will be forthcoming', 'Connection closing']) {
      expect(amqpFailure(new Error(text)), text).toBe('erro-rede');
    }
    expect(amqpFailure(new Error('Connection closed: 320 (CONNECTION-FORCED)'))).toBe('erro-rede');
    expect(amqpFailure(new Error('Channel closed by server: 404 (NOT-FOUND)'))).toBe('sem-rota');
  });
});

describe('a RabbitMQ connection, through the guarded layer', () => {
  const target = (host: string, port: number) => `amqp://${host}:${port}/?routingKey=x`;

  it('goes only to the address the product resolved and checked', () => expectOnlyTheCheckedAddress(target));
  it('is refused, connecting nowhere, when the name resolves to a private address', () => expectPrivateAnswerRefused(target));
  it('to a broker that accepts and says nothing leaves no socket after the deadline', () => expectNoSocketLeft('silent', target));
  it('to a broker that drips Connection.Start a byte at a time leaves no socket after the deadline', () =>
    expectNoSocketLeft('drip', target));
  it('past the tenant’s cap, all in use, fails as limite-conexoes', () => expectCapWhenAllInUse(target));

  it('closes a connection left idle', async () => {
    const queue = `t-${randomUUID()}`;
    const admin = await amqp.connect(RABBIT);
    const channel = await admin.createChannel();
    await channel.assertQueue(queue, { durable: false, autoDelete: false });
    try {
      await expectIdleClosed(
        5672,
        (host, port) => `amqp://${host}:${port}/?routingKey=${queue}`,
        (sent) => sent.verdict.result === 'delivered',
      );
    } finally {
      await channel.deleteQueue(queue);
      await admin.close();
    }
  });

  it('200 attempts to distinct hosts leave the tenant’s cap of connections open, no more', async () => {
    const queue = `t-${randomUUID()}`;
    const admin = await amqp.connect(RABBIT);
    const channel = await admin.createChannel();
    await channel.assertQueue(queue, { durable: false, autoDelete: false });
    try {
      await expectCapAcrossHosts(
        5672,
        (host, port) => `amqp://${host}:${port}/?routingKey=${queue}`,
        (sent) => sent.verdict.result === 'delivered',
      );
    } finally {
      await channel.deleteQueue(queue);
      await admin.close();
    }
  }, 60_000);
});
