import { randomUUID } from 'node:crypto';
import net from 'node:net';
import amqp from 'amqplib';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, describe, expect, it } from 'vitest';
import { resolverFor } from '../checked-lookup';
import { amqpFailure } from './amqp/sender';
import type { Credentials, OutgoingMessage, SendSettings } from './destination';
import { registerDestinations, type Destinations } from './index';

/**
 * The broker destinations against the real RabbitMQ (127.0.0.1:5672, guest/guest) and NATS
 * JetStream (127.0.0.1:4222) that scripts/test-all.sh starts (their adapters' own tests). Each test
 * uses its own exchange, queue, stream and subject, and removes them.
 */
const RABBIT = 'amqp://guest:guest@127.0.0.1:5672';
const resolve = resolverFor(undefined);
/** The registry as the attempt uses it: the target parsed by its kind, then sent. */
function sending(destinations: Destinations) {
  return {
    send: (url: string, message: OutgoingMessage, settings: SendSettings, credentials?: Credentials, tenant?: string) =>
      destinations.route(url)!.send(message, settings, credentials, tenant),
    close: () => destinations.close(),
  };
}
const amqpKind = sending(registerDestinations({ resolve }));
const natsKind = sending(registerDestinations({ resolve }));
const allowed = { timeoutMs: 3000, allowPrivateTargets: true };
const message = (id = `msg_${randomUUID()}`): OutgoingMessage => ({
  id,
  body: '{"type":"webhook.teste"}',
  headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' },
  customHeaders: [{ chave: 'X-Parceiro', valor: 'clinica' }],
});

afterAll(async () => {
  await amqpKind.close();
  await natsKind.close();
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

describe('the RabbitMQ destination', () => {
  it('publishes persistent, with the signature and custom headers, and counts the confirm as delivered', async () => {
    const name = `t-${randomUUID()}`;
    const connection = await amqp.connect(RABBIT);
    const channel = await connection.createChannel();
    try {
      await channel.assertExchange(name, 'direct', { durable: false, autoDelete: false });
      await channel.assertQueue(name, { durable: false });
      await channel.bindQueue(name, name, 'parceiro');
      const sent = await amqpKind.send(`amqp://127.0.0.1:5672/?exchange=${name}&routingKey=parceiro`, message('msg_a'), allowed, {
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
      const unroutable = await amqpKind.send(`amqp://127.0.0.1:5672/?exchange=${name}&routingKey=ninguem`, message(), allowed, null);
      expect(unroutable.verdict).toEqual({ result: 'retry', reason: 'sem-rota', outage: false });
    } finally {
      await channel.deleteQueue(name).catch(() => undefined);
      await channel.deleteExchange(name).catch(() => undefined);
      await connection.close();
    }
  });

  it('classifies a missing exchange, refused credentials, a closed port and a private target', async () => {
    const missing = await amqpKind.send(
      `amqp://127.0.0.1:5672/?exchange=nao-existe-${randomUUID()}&routingKey=x`,
      message(),
      allowed,
      null,
    );
    expect(missing.verdict).toEqual({ result: 'retry', reason: 'sem-rota', outage: false });
    const refused = await amqpKind.send('amqp://127.0.0.1:5672/?routingKey=x', message(), allowed, { usuario: 'guest', senha: 'errada' });
    expect(refused.verdict).toEqual({ result: 'retry', reason: 'autenticacao-recusada', outage: true });
    // A vhost that does not exist (or that the login may not use): RabbitMQ closes the connection
    // in answer to connection.open (issue 43: this was erro-interno).
    const noVhost = await amqpKind.send(`amqp://127.0.0.1:5672/nao-existe-${randomUUID()}?routingKey=x`, message(), allowed, null);
    expect(noVhost.verdict).toEqual({ result: 'retry', reason: 'autenticacao-recusada', outage: true });
    const down = await amqpKind.send(`amqp://127.0.0.1:${await closedPort()}/?routingKey=x`, message(), allowed, null);
    expect(down.verdict).toEqual({ result: 'retry', reason: 'conexao-recusada', outage: true });
    const blocked = await amqpKind.send('amqp://127.0.0.1:5672/?routingKey=x', message(), { ...allowed, allowPrivateTargets: false }, null);
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

describe('the NATS JetStream destination', () => {
  it('publishes with Nats-Msg-Id, waits for the stream’s acknowledgement, and the stream drops a repeated id', async () => {
    const stream = `T_${randomUUID().replaceAll('-', '')}`;
    const subject = `teste.${stream}`;
    const nc = await connect({ servers: '127.0.0.1:4222' });
    const jsm = await jetstreamManager(nc);
    try {
      await jsm.streams.add({ name: stream, subjects: [subject] });
      const target = `nats://127.0.0.1:4222?subject=${subject}`;
      expect((await natsKind.send(target, message('msg_n'), allowed, null)).verdict).toEqual({ result: 'delivered' });
      expect((await natsKind.send(target, message('msg_n'), allowed, null)).verdict).toEqual({ result: 'delivered' });
      const info = await jsm.streams.info(stream);
      expect(info.state.messages).toBe(1);
      const stored = await jsm.streams.getMessage(stream, { seq: 1 });
      expect(stored?.header.get('Nats-Msg-Id')).toBe('msg_n');
      expect(stored?.header.get('webhook-signature')).toBe('v1,x');
      expect(stored?.header.get('X-Parceiro')).toBe('clinica');
      expect(stored?.string()).toBe('{"type":"webhook.teste"}');
    } finally {
      await jsm.streams.delete(stream).catch(() => undefined);
      await nc.close();
    }
  });

  it('classifies a subject no stream takes, a closed port and a private target', async () => {
    const nowhere = await natsKind.send(`nats://127.0.0.1:4222?subject=ninguem.${randomUUID()}`, message(), allowed, null);
    expect(nowhere.verdict).toEqual({ result: 'retry', reason: 'sem-rota', outage: false });
    const down = await natsKind.send(`nats://127.0.0.1:${await closedPort()}?subject=x`, message(), allowed, null);
    expect(down.verdict).toEqual({ result: 'retry', reason: 'conexao-recusada', outage: true });
    const blocked = await natsKind.send('nats://127.0.0.1:4222?subject=x', message(), { ...allowed, allowPrivateTargets: false }, null);
    expect(blocked.verdict).toEqual({ result: 'retry', reason: 'destino-bloqueado', outage: false });
  });
});
