import { randomUUID } from 'node:crypto';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CountingServer } from '@/e2e/support/counting-server';
import { DnsServer } from '@/e2e/support/dns-server';
import { resolverFor, type Resolve } from '../checked-lookup';
import type { Credentials, OutgoingMessage, SendSettings } from '../destinations/destination';
import { registerDestinations, type Destinations } from '../destinations/index';
import type { PoolSettings } from './pool';

/**
 * The guarded connection layer (issue 43) with real sockets, the real RabbitMQ (127.0.0.1:5672)
 * and NATS (127.0.0.1:4222), and a DNS server the product's resolver asks (WEBHOOK_DNS_SERVERS'
 * resolver). The servers count, from their side, the connections they accepted and the ones
 * still open: what a client library did, whatever it reports.
 */
const message = (): OutgoingMessage => {
  const id = `msg_${randomUUID()}`;
  return {
    id,
    body: '{"type":"webhook.teste"}',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' },
    customHeaders: [],
  };
};

/** The registry as the attempt uses it: the target parsed by its kind, then sent. */
function sending(destinations: Destinations) {
  return {
    send: (url: string, message: OutgoingMessage, settings: SendSettings, credentials?: Credentials, tenant?: string) =>
      destinations.route(url)!.send(message, settings, credentials, tenant),
    close: () => destinations.close(),
  };
}
const kinds = (resolve: Resolve, pool?: PoolSettings) => sending(registerDestinations({ resolve, pool }));

type KindCase = { name: string; make: (resolve: Resolve) => ReturnType<typeof kinds>; target: (host: string, port: number) => string };

const KINDS: KindCase[] = [
  { name: 'http', make: (resolve) => kinds(resolve), target: (host, port) => `http://${host}:${port}/receptor` },
  { name: 'amqp', make: (resolve) => kinds(resolve), target: (host, port) => `amqp://${host}:${port}/?routingKey=x` },
  { name: 'nats', make: (resolve) => kinds(resolve), target: (host, port) => `nats://${host}:${port}?subject=x` },
  // NATS over TLS: before issue 43 the client was handed the name and resolved it again itself.
  { name: 'nats over TLS', make: (resolve) => kinds(resolve), target: (host, port) => `tls://${host}:${port}?subject=x` },
];

describe.each(KINDS)('$name: connections go only to the address the product resolved and checked', ({ make, target }) => {
  /**
   * `localhost`: the product's resolver (the DNS server) answers 127.0.0.2 first, 127.0.0.1 after;
   * the system resolver a client library would use answers 127.0.0.1 (/etc/hosts). Private
   * targets are allowed here, so the first answer passes the policy: only an attempt that connects
   * to exactly what was checked leaves the trap on 127.0.0.1 untouched. Both servers say nothing:
   * the attempt times out, and neither keeps a socket open after it.
   */
  it('connects to the first answer and never to the name’s next one', async () => {
    const dns = await new DnsServer(['127.0.0.2', '127.0.0.1']).start();
    const checked = await new CountingServer('silent').start(['127.0.0.2']);
    const trap = await new CountingServer('silent').start(['127.0.0.1'], checked.port);
    const kind = make(resolverFor([dns.address]));
    try {
      const sent = await kind.send(target('localhost', checked.port), message(), { timeoutMs: 700, allowPrivateTargets: true }, null, 't1');
      expect(sent.verdict).toMatchObject({ result: 'retry', reason: 'tempo-esgotado' });
      expect(checked.acceptedAt('127.0.0.2')).toBe(1);
      expect(trap.acceptedAt('127.0.0.1')).toBe(0);
      await expect.poll(() => checked.open).toBe(0);
    } finally {
      await kind.close();
      await Promise.all([dns.stop(), checked.stop(), trap.stop()]);
    }
  });

  it('refuses a name whose answer is private, connecting nowhere', async () => {
    const dns = await new DnsServer('127.0.0.1').start();
    const trap = await new CountingServer('silent').start(['127.0.0.1']);
    const kind = make(resolverFor([dns.address]));
    try {
      const sent = await kind.send(
        target('receptor.exemplo.com.br', trap.port),
        message(),
        { timeoutMs: 700, allowPrivateTargets: false },
        null,
        't1',
      );
      expect(sent.verdict).toEqual({ result: 'retry', reason: 'destino-bloqueado', outage: false });
      expect(trap.acceptedAt('127.0.0.1')).toBe(0);
    } finally {
      await kind.close();
      await Promise.all([dns.stop(), trap.stop()]);
    }
  });
});

describe('a broker that never completes its handshake', () => {
  const resolve = resolverFor(undefined);

  it('RabbitMQ dripping Connection.Start a byte at a time: the attempt times out and its socket is closed', async () => {
    const drip = await new CountingServer('drip').start(['127.0.0.2']);
    const kind = kinds(resolve);
    try {
      const sent = await kind.send(
        `amqp://127.0.0.2:${drip.port}/?routingKey=x`,
        message(),
        { timeoutMs: 600, allowPrivateTargets: true },
        null,
        't1',
      );
      expect(sent.verdict).toMatchObject({ result: 'retry', reason: 'tempo-esgotado' });
      expect(drip.acceptedAt('127.0.0.2')).toBe(1);
      await expect.poll(() => drip.open).toBe(0);
    } finally {
      await kind.close();
      await drip.stop();
    }
  });

  it('a tenant whose connections are all in use at the cap fails the next attempt as limite-conexoes', async () => {
    const hosts = ['127.0.2.1', '127.0.2.2', '127.0.2.3'];
    const silent = await new CountingServer('silent').start(hosts);
    const kind = kinds(resolve, { idleMs: 60_000, perTenant: 2 });
    try {
      const sends = hosts.map((host) =>
        kind.send(`nats://${host}:${silent.port}?subject=x`, message(), { timeoutMs: 700, allowPrivateTargets: true }, null, 't1'),
      );
      // Another tenant has room of its own.
      const other = kind.send(
        `nats://127.0.2.1:${silent.port}?subject=x`,
        message(),
        { timeoutMs: 700, allowPrivateTargets: true },
        null,
        't2',
      );
      const verdicts = (await Promise.all([...sends, other])).map((sent) => sent.verdict);
      expect(verdicts.map((verdict) => verdict.result === 'retry' && verdict.reason)).toEqual([
        'tempo-esgotado',
        'tempo-esgotado',
        'limite-conexoes',
        'tempo-esgotado',
      ]);
      expect(verdicts[2]).toEqual({ result: 'retry', reason: 'limite-conexoes', outage: false });
      expect(silent.acceptedAt('127.0.2.3')).toBe(0);
      await expect.poll(() => silent.open).toBe(0);
    } finally {
      await kind.close();
      await silent.stop();
    }
  });
});

describe('200 attempts to distinct hosts', () => {
  const CAP = 5;
  const hosts = Array.from({ length: 200 }, (_, index) => `127.0.1.${index + 1}`);
  const queue = `t-${randomUUID()}`;
  let admin: amqp.ChannelModel;

  beforeAll(async () => {
    admin = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    const channel = await admin.createChannel();
    await channel.assertQueue(queue, { durable: false, autoDelete: false });
  });

  afterAll(async () => {
    const channel = await admin.createChannel();
    await channel.deleteQueue(queue);
    await admin.close();
  });

  it.each([
    {
      name: 'RabbitMQ',
      port: 5672,
      make: (pool: PoolSettings) => kinds(resolverFor(undefined), pool),
      target: (host: string, port: number) => `amqp://${host}:${port}/?routingKey=${queue}`,
    },
    {
      name: 'NATS',
      port: 4222,
      make: (pool: PoolSettings) => kinds(resolverFor(undefined), pool),
      target: (host: string, port: number) => `nats://${host}:${port}?subject=sem.stream.${randomUUID()}`,
    },
  ])(
    '$name: one tenant never has more than its cap of connections open',
    async ({ port, make, target }) => {
      const proxy = await new CountingServer({ proxyTo: port }).start(hosts);
      const kind = make({ idleMs: 60_000, perTenant: CAP });
      try {
        for (const host of hosts) {
          const sent = await kind.send(target(host, proxy.port), message(), { timeoutMs: 3000, allowPrivateTargets: true }, null, 't1');
          // RabbitMQ takes it; NATS has no stream on the subject (sem-rota): either way the connection was used.
          expect(sent.verdict.result === 'delivered' || (sent.verdict.result === 'retry' && sent.verdict.reason === 'sem-rota')).toBe(true);
        }
        expect([...proxy.accepted.values()].reduce((sum, count) => sum + count, 0)).toBe(hosts.length);
        await expect.poll(() => proxy.open).toBe(CAP);
      } finally {
        await kind.close();
        await proxy.stop();
      }
    },
    60_000,
  );
});
