import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { expect } from 'vitest';
import { CountingServer, type Behaviour } from '@/e2e/support/counting-server';
import { DnsServer } from '@/e2e/support/dns-server';
import { resolverFor, type Resolve } from '@/lib/webhooks/delivery/checked-lookup';
import type { PoolSettings } from '@/lib/webhooks/delivery/connection/pool';
import type { Credentials, OutgoingMessage, Sent, SendSettings } from '@/lib/webhooks/delivery/destinations';
import { registerDestinations } from '@/lib/webhooks/delivery/destinations';

/**
 * What every destination kind's tests share (issue 43): the registry as an attempt uses it, a
 * signed-looking message, and the guarded-connection scenarios each kind runs against real sockets
 * with its own target (`target(host, port)`). The servers count, from their side, the connections
 * they accepted and the ones still open: what a client library did, whatever it reports.
 */
export type TargetAt = (host: string, port: number) => string;

/** The registry as the attempt uses it: the target parsed once by its kind, then sent. */
export function sendingThrough(resolve: Resolve = resolverFor(undefined), pool?: PoolSettings) {
  const destinations = registerDestinations({ resolve, ...(pool ? { pool } : {}) });
  return {
    send: (url: string, message: OutgoingMessage, settings: SendSettings, credentials?: Credentials, tenant = 't1'): Promise<Sent> =>
      destinations.route(url)!.send(message, settings, credentials, tenant),
    close: () => destinations.close(),
  };
}

export function testMessage(id = `msg_${randomUUID()}`, customHeaders: OutgoingMessage['customHeaders'] = []): OutgoingMessage {
  return {
    id,
    body: '{"type":"webhook.teste"}',
    headers: { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' },
    customHeaders,
  };
}

/** A port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * A name that rebinds: `localhost`, which the product's resolver (a DNS server) answers 127.0.0.2
 * first and 127.0.0.1 after, and which the system resolver a client library would use answers
 * 127.0.0.1 (/etc/hosts). Private targets are allowed here, so the first answer passes the policy:
 * only an attempt that connects to exactly what was checked leaves the trap on 127.0.0.1
 * untouched. Both servers say nothing: the attempt times out, and neither keeps a socket open.
 */
export async function expectOnlyTheCheckedAddress(target: TargetAt): Promise<void> {
  const dns = await new DnsServer(['127.0.0.2', '127.0.0.1']).start();
  const checked = await new CountingServer('silent').start(['127.0.0.2']);
  const trap = await new CountingServer('silent').start(['127.0.0.1'], checked.port);
  const kind = sendingThrough(resolverFor([dns.address]));
  try {
    const sent = await kind.send(target('localhost', checked.port), testMessage(), { timeoutMs: 700, allowPrivateTargets: true });
    expect(sent.verdict).toMatchObject({ result: 'retry', reason: 'tempo-esgotado' });
    expect(checked.acceptedAt('127.0.0.2')).toBe(1);
    expect(trap.acceptedAt('127.0.0.1')).toBe(0);
    await expect.poll(() => checked.open).toBe(0);
  } finally {
    await kind.close();
    await Promise.all([dns.stop(), checked.stop(), trap.stop()]);
  }
}

/** A public-looking name the product's resolver answers with a loopback address: refused, nothing connected. */
export async function expectPrivateAnswerRefused(target: TargetAt): Promise<void> {
  const dns = await new DnsServer('127.0.0.1').start();
  const trap = await new CountingServer('silent').start(['127.0.0.1']);
  const kind = sendingThrough(resolverFor([dns.address]));
  try {
    const sent = await kind.send(target('receptor.exemplo.com.br', trap.port), testMessage(), {
      timeoutMs: 700,
      allowPrivateTargets: false,
    });
    expect(sent.verdict).toEqual({ result: 'retry', reason: 'destino-bloqueado', outage: false });
    expect(trap.acceptedAt('127.0.0.1')).toBe(0);
  } finally {
    await kind.close();
    await Promise.all([dns.stop(), trap.stop()]);
  }
}

/** A server that never completes the handshake (`silent`, `drip`): the attempt times out and leaves no socket open. */
export async function expectNoSocketLeft(behaviour: Behaviour, target: TargetAt): Promise<void> {
  const server = await new CountingServer(behaviour).start(['127.0.0.2']);
  const kind = sendingThrough();
  try {
    const sent = await kind.send(target('127.0.0.2', server.port), testMessage(), { timeoutMs: 600, allowPrivateTargets: true });
    expect(sent.verdict).toMatchObject({ result: 'retry', reason: 'tempo-esgotado' });
    expect(server.acceptedAt('127.0.0.2')).toBe(1);
    await expect.poll(() => server.open).toBe(0);
  } finally {
    await kind.close();
    await server.stop();
  }
}

/**
 * A tenant whose connections are all in use at its cap: its next attempt to another host fails
 * as `limite-conexoes` without connecting, while another tenant still has room.
 */
export async function expectCapWhenAllInUse(target: TargetAt): Promise<void> {
  const hosts = ['127.0.2.1', '127.0.2.2', '127.0.2.3'];
  const silent = await new CountingServer('silent').start(hosts);
  const kind = sendingThrough(undefined, { idleMs: 60_000, perTenant: 2 });
  const settings = { timeoutMs: 700, allowPrivateTargets: true };
  try {
    const sends = hosts.map((host) => kind.send(target(host, silent.port), testMessage(), settings, null, 't1'));
    const other = kind.send(target(hosts[0]!, silent.port), testMessage(), settings, null, 't2');
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
}

/**
 * 200 attempts of one tenant, each to a distinct host (127.0.1.1 to 127.0.1.200, every one a
 * proxy to the real broker on `brokerPort`): each reaches the broker (`accepts` says whether the
 * verdict means it did), and afterwards exactly the cap of connections is open.
 */
export async function expectCapAcrossHosts(brokerPort: number, target: TargetAt, accepts: (sent: Sent) => boolean): Promise<void> {
  const cap = 5;
  const hosts = Array.from({ length: 200 }, (_, index) => `127.0.1.${index + 1}`);
  const proxy = await new CountingServer({ proxyTo: brokerPort }).start(hosts);
  const kind = sendingThrough(undefined, { idleMs: 60_000, perTenant: cap });
  try {
    for (const host of hosts) {
      const sent = await kind.send(target(host, proxy.port), testMessage(), { timeoutMs: 3000, allowPrivateTargets: true });
      expect(accepts(sent), host).toBe(true);
    }
    expect([...proxy.accepted.values()].reduce((sum, count) => sum + count, 0)).toBe(hosts.length);
    await expect.poll(() => proxy.open).toBe(cap);
  } finally {
    await kind.close();
    await proxy.stop();
  }
}

/** A pooled connection no attempt uses is closed once idle for the pool's idleMs (here 300 ms). */
export async function expectIdleClosed(brokerPort: number, target: TargetAt, accepts: (sent: Sent) => boolean): Promise<void> {
  const proxy = await new CountingServer({ proxyTo: brokerPort }).start(['127.0.0.2']);
  const kind = sendingThrough(undefined, { idleMs: 300, perTenant: 5 });
  try {
    const sent = await kind.send(target('127.0.0.2', proxy.port), testMessage(), { timeoutMs: 3000, allowPrivateTargets: true });
    expect(accepts(sent)).toBe(true);
    // Kept for the next attempt at first...
    expect(proxy.open).toBe(1);
    // ...and closed by the pool, not the broker, once idle.
    await expect.poll(() => proxy.open, { timeout: 5000 }).toBe(0);
    expect(proxy.acceptedAt('127.0.0.2')).toBe(1);
  } finally {
    await kind.close();
    await proxy.stop();
  }
}
