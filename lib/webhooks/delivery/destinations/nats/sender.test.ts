import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, describe, expect, it } from 'vitest';
import { DnsServer } from '@/e2e/support/dns-server';
import { resolverFor } from '../../checked-lookup';
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

/**
 * NATS JetStream targets against the real server (127.0.0.1:4222) that scripts/test-all.sh starts
 * (the sender's own tests), through the registry as an attempt uses it. Each test uses its own
 * stream and subject, and removes them.
 */
const nats = sendingThrough();

const allowed = { timeoutMs: 3000, allowPrivateTargets: true };
const message = (id?: string) => testMessage(id, [{ chave: 'X-Parceiro', valor: 'clinica' }]);

afterAll(() => nats.close());

describe('the NATS JetStream destination', () => {
  it('publishes with Nats-Msg-Id, waits for the stream’s acknowledgement, and the stream drops a repeated id', async () => {
    const stream = `T_${randomUUID().replaceAll('-', '')}`;
    const subject = `teste.${stream}`;
    const nc = await connect({ servers: '127.0.0.1:4222' });
    const jsm = await jetstreamManager(nc);
    try {
      await jsm.streams.add({ name: stream, subjects: [subject] });
      const target = `nats://127.0.0.1:4222?subject=${subject}`;
      expect((await nats.send(target, message('msg_n'), allowed, null)).verdict).toEqual({ result: 'delivered' });
      expect((await nats.send(target, message('msg_n'), allowed, null)).verdict).toEqual({ result: 'delivered' });
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
    const nowhere = await nats.send(`nats://127.0.0.1:4222?subject=ninguem.${randomUUID()}`, message(), allowed, null);
    expect(nowhere.verdict).toEqual({ result: 'retry', reason: 'sem-rota', outage: false });
    const down = await nats.send(`nats://127.0.0.1:${await closedPort()}?subject=x`, message(), allowed, null);
    expect(down.verdict).toEqual({ result: 'retry', reason: 'conexao-recusada', outage: true });
    const blocked = await nats.send('nats://127.0.0.1:4222?subject=x', message(), { ...allowed, allowPrivateTargets: false }, null);
    expect(blocked.verdict).toEqual({ result: 'retry', reason: 'destino-bloqueado', outage: false });
  });
});

describe.each([
  { over: 'plain', scheme: 'nats' },
  // Over TLS the client was handed the name before issue 43, and resolved it again itself.
  { over: 'TLS', scheme: 'tls' },
])('a NATS connection ($over), through the guarded layer', ({ scheme }) => {
  const target = (host: string, port: number) => `${scheme}://${host}:${port}?subject=x`;

  it('goes only to the address the product resolved and checked', () => expectOnlyTheCheckedAddress(target));
  it('is refused, connecting nowhere, when the name resolves to a private address', () => expectPrivateAnswerRefused(target));
  it('to a server that accepts and says nothing leaves no socket after the deadline', () => expectNoSocketLeft('silent', target));
});

describe('NATS connections per tenant', () => {
  const target = (host: string, port: number) => `nats://${host}:${port}?subject=x`;

  it('past the tenant’s cap, all in use, fail as limite-conexoes', () => expectCapWhenAllInUse(target));

  it('closes a connection left idle', () =>
    expectIdleClosed(
      4222,
      (host, port) => `nats://${host}:${port}?subject=sem.stream.${randomUUID()}`,
      (sent) => sent.verdict.result === 'retry' && sent.verdict.reason === 'sem-rota',
    ));

  it('200 attempts to distinct hosts leave the tenant’s cap of connections open, no more', async () => {
    // No stream takes the subject (sem-rota): the connection was opened and used all the same.
    const subject = `sem.stream.${randomUUID()}`;
    await expectCapAcrossHosts(
      4222,
      (host, port) => `nats://${host}:${port}?subject=${subject}`,
      (sent) => sent.verdict.result === 'retry' && sent.verdict.reason === 'sem-rota',
    );
  }, 60_000);
});

describe('NATS over TLS', () => {
  /**
   * A server on 127.0.0.2 that requires TLS (its INFO says so) and records what the client sends:
   * the client's TLS hello names the server it expects (SNI), in clear. Reached by name through our
   * DNS server: the client connects to the checked address and asks for a certificate of the name.
   */
  it('connects to the checked address and verifies the certificate against the name', async () => {
    const received: Buffer[] = [];
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('data', (chunk) => received.push(chunk));
      socket.write('INFO {"server_id":"fake","version":"2.10.0","proto":1,"tls_required":true,"max_payload":1048576}\r\n');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.2', done));
    const { port } = server.address() as net.AddressInfo;
    const dns = await new DnsServer('127.0.0.2').start();
    const kind = sendingThrough(resolverFor([dns.address]));
    try {
      const sent = await kind.send(`tls://nats.parceiro.com.br:${port}?subject=x`, message(), {
        timeoutMs: 700,
        allowPrivateTargets: true,
      });
      expect(sent.verdict).toMatchObject({ result: 'retry', reason: 'tempo-esgotado' });
      expect(Buffer.concat(received).includes('nats.parceiro.com.br')).toBe(true);
      await expect.poll(() => sockets.size).toBe(0);
    } finally {
      await kind.close();
      await dns.stop();
      await new Promise((done) => server.close(done));
    }
  });
});
