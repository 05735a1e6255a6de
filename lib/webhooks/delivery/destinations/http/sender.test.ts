import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSocketLeft, expectOnlyTheCheckedAddress, expectPrivateAnswerRefused, sendingThrough } from '@/lib/testing/destinations';
import type { OutgoingMessage } from '../destination';
import { httpKind } from '../../../configurations/destinations/http';
import { classify, verdictOf } from './sender';

/** The HTTP destination against a real receiver on 127.0.0.1 (its adapter's own test). */
const answers = new Map<string, (response: http.ServerResponse) => void>([
  ['/ok', (response) => response.writeHead(204).end()],
  ['/busy', (response) => response.writeHead(503, { 'retry-after': '120' }).end('ocupado')],
  ['/gone', (response) => response.writeHead(410).end()],
  ['/hang', () => undefined],
]);
const seen: http.IncomingHttpHeaders[] = [];
const receiver = http.createServer((request, response) => {
  seen.push(request.headers);
  request.resume();
  request.on('end', () => answers.get(request.url ?? '')?.(response));
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const destination = sendingThrough();
const message = (customHeaders: OutgoingMessage['customHeaders'] = []): OutgoingMessage => ({
  id: 'msg_1',
  body: '{"type":"webhook.teste"}',
  headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
  customHeaders,
});
const allowed = { timeoutMs: 1000, allowPrivateTargets: true };

describe('the HTTP destination', () => {
  it('delivers on a 2xx, sending the message’s headers and the custom ones', async () => {
    const sent = await destination.send(`${base}/ok`, message([{ chave: 'X-Origem', valor: 'ação' }]), allowed);
    expect(sent).toMatchObject({ verdict: { result: 'delivered' }, status: 204 });
    expect(seen.at(-1)).toMatchObject({ 'webhook-id': 'msg_1' });
    // Node writes the value's UTF-8 bytes; the receiver's parser reads header bytes as Latin-1.
    expect(Buffer.from(String(seen.at(-1)!['x-origem']), 'latin1').toString('utf8')).toBe('ação');
  });

  it('retries a 503 as an outage, after its Retry-After, keeping the start of the answer', async () => {
    const sent = await destination.send(`${base}/busy`, message(), allowed);
    expect(sent).toMatchObject({
      verdict: { result: 'retry', reason: 'status-http', outage: true, retryAfterSeconds: 120 },
      status: 503,
      body: 'ocupado',
    });
  });

  it('fails a 410 for good and switches the configuration off', async () => {
    expect((await destination.send(`${base}/gone`, message(), allowed)).verdict).toEqual({
      result: 'permanent',
      reason: 'status-http',
      disable: 'receptor-410',
    });
  });

  it('gives up on a receiver that never answers at the timeout', async () => {
    const sent = await destination.send(`${base}/hang`, message(), { ...allowed, timeoutMs: 200 });
    expect(sent.verdict).toEqual({ result: 'retry', reason: 'tempo-esgotado', outage: true });
    expect(sent.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('names a refused connection, and a private address the policy blocks, without sending', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await destination.send(`http://127.0.0.1:${port}/`, message(), allowed)).verdict).toMatchObject({
      reason: 'conexao-recusada',
      outage: true,
    });
    expect((await destination.send(`${base}/ok`, message(), { ...allowed, allowPrivateTargets: false })).verdict).toEqual({
      result: 'retry',
      reason: 'destino-bloqueado',
      outage: false,
    });
  });

  it('sends again on a new connection when the receiver closes a kept-alive one as the request goes out', async () => {
    // Answers a connection's first request, then drops the connection when the next one comes on it:
    // what a receiver whose idle timeout ends just as the next delivery is written does.
    const answered: string[] = [];
    const closing = http.createServer((request, response) => {
      if ((request.socket as { served?: boolean }).served) {
        request.socket.destroy();
        return;
      }
      (request.socket as { served?: boolean }).served = true;
      request.resume();
      request.on('end', () => {
        answered.push(String(request.headers['webhook-id']));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closing.address() as AddressInfo).port}/`;
    try {
      const first = await destination.send(url, { ...message(), headers: { 'webhook-id': 'msg_a' } }, allowed);
      const second = await destination.send(url, { ...message(), headers: { 'webhook-id': 'msg_b' } }, allowed);
      expect([first.status, second.status]).toEqual([204, 204]);
      expect(answered).toEqual(['msg_a', 'msg_b']);
    } finally {
      closing.closeAllConnections();
      await new Promise((resolve) => closing.close(resolve));
    }
  });

  it('fails a stored header value HTTP cannot carry by name, before any request', async () => {
    const before = seen.length;
    const sent = await destination.send(`${base}/ok`, message([{ chave: 'X-Moeda', valor: '€ euro' }]), allowed);
    expect(sent.verdict).toEqual({ result: 'retry', reason: 'cabecalho-invalido', outage: true });
    expect(seen).toHaveLength(before);
  });

  it('parses http and https targets only, and describes them without path or query', () => {
    expect(httpKind.parse('https://h.example/x')).toMatchObject({ kind: 'http', tls: true, hostname: 'h.example', port: 443 });
    expect(httpKind.parse('ftp://h.example/x')).toBeUndefined();
    expect(httpKind.spanAttributes(httpKind.parse('https://h.example:8443/x?token=1')!)).toEqual({
      'http.request.method': 'POST',
      'url.scheme': 'https',
      'server.address': 'h.example',
      'server.port': 8443,
    });
  });
});

describe('HTTP verdicts and error classes', () => {
  it('classes answers: 2xx delivered, 5xx an outage, 4xx and redirects retried without one, 429 after its Retry-After', () => {
    expect(verdictOf(200, undefined)).toEqual({ result: 'delivered' });
    expect(verdictOf(500, undefined)).toEqual({ result: 'retry', reason: 'status-http', outage: true });
    expect(verdictOf(404, undefined)).toEqual({ result: 'retry', reason: 'status-http', outage: false });
    expect(verdictOf(302, undefined)).toEqual({ result: 'retry', reason: 'redirecionamento', outage: false });
    expect(verdictOf(429, '30')).toEqual({ result: 'retry', reason: 'status-http', outage: false, retryAfterSeconds: 30 });
  });

  it('classes thrown errors: header, TLS, socket, and anything else as a bug', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(classify(coded('ERR_INVALID_CHAR'))).toBe('cabecalho-invalido');
    expect(classify(coded('CERT_HAS_EXPIRED'))).toBe('tls');
    expect(classify(coded('ERR_TLS_CERT_ALTNAME_INVALID'))).toBe('tls');
    expect(classify(coded('ECONNRESET'))).toBe('erro-rede');
    expect(classify(coded('ENOTFOUND'))).toBe('dns');
    expect(classify(new TypeError('x is undefined'))).toBe('erro-interno');
  });
});

describe('an HTTP connection, through the guarded resolution', () => {
  const target = (host: string, port: number) => `http://${host}:${port}/receptor`;

  it('goes only to the address the product resolved and checked', () => expectOnlyTheCheckedAddress(target));
  it('is refused, connecting nowhere, when the name resolves to a private address', () => expectPrivateAnswerRefused(target));
  it('to a receiver that accepts and says nothing leaves no socket after the deadline', () => expectNoSocketLeft('silent', target));
});
