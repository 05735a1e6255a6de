import { afterEach, describe, expect, it } from 'vitest';
import { clientAddress, fromTrustedProxy } from './client-address';
import { PEER_ADDRESS_HEADER } from './entry-headers';
import { parseTrustedProxies } from '@/lib/config/trusted-proxies';
import { resetEnv } from '@/lib/testing/hooks';

function withProxies(value: string | undefined) {
  if (value === undefined) delete process.env.TRUSTED_PROXIES;
  else process.env.TRUSTED_PROXIES = value;
  resetEnv();
}

afterEach(() => withProxies(undefined));

describe('clientAddress', () => {
  it('is the TCP peer, whatever X-Forwarded-For says, when no proxy is trusted', () => {
    const headers = new Headers({ [PEER_ADDRESS_HEADER]: '::ffff:198.51.100.4', 'x-forwarded-for': '203.0.113.9' });
    expect(clientAddress(headers)).toBe('198.51.100.4');
    expect(fromTrustedProxy(headers)).toBe(false);
  });

  it('reads X-Forwarded-For from the right through trusted proxies only', () => {
    withProxies('10.0.0.0/8, 192.0.2.7');
    // The client wrote 1.1.1.1 itself; 203.0.113.9 reached the first trusted proxy (10.1.1.1), which reached 192.0.2.7.
    const headers = { [PEER_ADDRESS_HEADER]: '192.0.2.7', 'x-forwarded-for': '1.1.1.1, 203.0.113.9, 10.1.1.1' };
    expect(clientAddress(headers)).toBe('203.0.113.9');
    expect(fromTrustedProxy(headers)).toBe(true);
  });

  it('is the trusted proxy itself when it forwarded nothing', () => {
    withProxies('127.0.0.1');
    expect(clientAddress({ [PEER_ADDRESS_HEADER]: '127.0.0.1' })).toBe('127.0.0.1');
  });

  it('falls back to X-Forwarded-For without the peer header (next dev)', () => {
    expect(clientAddress({ 'x-forwarded-for': '203.0.113.5, 10.0.0.1' })).toBe('203.0.113.5');
    expect(clientAddress(undefined)).toBe('unknown');
  });
});

describe('parseTrustedProxies', () => {
  it('accepts addresses and CIDR blocks of both families', () => {
    const proxies = parseTrustedProxies(' 10.0.0.0/8 ,192.0.2.7, fd00::/8 ');
    if ('error' in proxies) throw new Error(proxies.error);
    expect(['10.255.0.1', '192.0.2.7', 'fd00::1', '::ffff:10.0.0.3'].every((a) => proxies.matches(a))).toBe(true);
    expect(['11.0.0.1', '192.0.2.8', 'fe80::1', 'not-an-ip'].some((a) => proxies.matches(a))).toBe(false);
  });

  it.each(['10.0.0.0/33', 'example.com', '10.0.0.1/8/1', '::1/129'])('refuses %s', (value) => {
    expect(parseTrustedProxies(value)).toEqual({ error: expect.stringContaining(value) });
  });
});
