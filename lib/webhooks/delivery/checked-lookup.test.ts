import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedTargetError, isBlockedAddress, type Resolve } from './checked-lookup';
import { checkedLookup } from './connection/guarded';

/**
 * The connect-time check against a real local server: a public-looking name that a resolver we
 * control answers with 127.0.0.1 (what DNS rebinding or a hostile record does) is refused before
 * any connection; allowed, the request reaches the server at the address that was checked.
 */
let server: http.Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((_request, response) => {
    hits++;
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const rebinding: Resolve = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);

function get(allowPrivateTargets: boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: 'receptor.exemplo.com.br', port, path: '/', lookup: checkedLookup(rebinding, allowPrivateTargets), agent: false },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve(body));
      },
    );
    request.on('error', reject);
  });
}

describe('checkedLookup', () => {
  it('refuses a name that resolves to a loopback address, before connecting', async () => {
    const before = hits;
    await expect(get(false)).rejects.toBeInstanceOf(BlockedTargetError);
    expect(hits).toBe(before);
  });

  it('connects to the checked address when private targets are allowed (development)', async () => {
    expect(await get(true)).toBe('ok');
  });

  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['fd00::1', true],
    ['8.8.8.8', false],
    ['2001:4860:4860::8888', false],
  ])('%s blocked: %s', (address, blocked) => {
    expect(isBlockedAddress(address)).toBe(blocked);
  });
});
