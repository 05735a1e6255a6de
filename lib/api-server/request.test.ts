import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { pathnameOf } from '@/lib/http/request-path';
import { clientAddress } from '@/lib/http/client-address';
import { requestOf } from './request';

/** What node:http hands the listener, as far as a request's head goes. */
function incoming(method: string, url: string, headers: http.IncomingHttpHeaders): http.IncomingMessage {
  return { method, url, headers } as http.IncomingMessage;
}

/** The standard Request the lean server built before: the reference every answer here must match. */
function standardRequest(method: string, url: string, headers: http.IncomingHttpHeaders): Request {
  const standard = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) standard.append(name, item);
    else standard.set(name, value);
  }
  return new Request(`http://${headers.host ?? 'localhost'}${url}`, { method, headers: standard });
}

const HEAD: http.IncomingHttpHeaders = {
  host: '127.0.0.1:3001',
  authorization: 'Bearer abc.def.ghi',
  'content-type': 'application/json',
  cookie: 'a=1; b=2',
  'x-forwarded-for': '10.0.0.1, 10.0.0.2',
  'set-cookie': ['x=1', 'y=2'],
};

describe('the lean server’s request', () => {
  it('answers headers as the standard Request did: any case, joined values, absent ones null', () => {
    const lean = requestOf(incoming('POST', '/api/v1/x', HEAD));
    const standard = standardRequest('POST', '/api/v1/x', HEAD);
    for (const name of ['Authorization', 'content-type', 'COOKIE', 'x-forwarded-for', 'set-cookie', 'accept-language']) {
      expect(lean.headers.get(name)).toBe(standard.headers.get(name));
      expect(lean.headers.has(name)).toBe(standard.headers.has(name));
    }
    expect([...lean.headers.keys()]).toEqual([...standard.headers.keys()]);
    expect([...lean.headers]).toEqual([...standard.headers]);
    expect(lean.headers.getSetCookie()).toEqual(['x=1', 'y=2']);
  });

  it('has the standard Request’s method, normalised URL and path', () => {
    const lean = requestOf(incoming('GET', '/api/./v1/../v1/slots?de=1', { host: 'Example.COM' }));
    const standard = standardRequest('GET', '/api/./v1/../v1/slots?de=1', { host: 'Example.COM' });
    expect(lean.method).toBe('GET');
    expect(lean.url).toBe(standard.url);
    expect(pathnameOf(lean)).toBe('/api/v1/slots');
    expect(lean.signal.aborted).toBe(false);
  });

  it('refuses what a Request refuses: a Host that is not a host name, a forbidden method', () => {
    expect(() => requestOf(incoming('GET', '/api/health', { host: 'bad host' }))).toThrow(TypeError);
    expect(() => standardRequest('GET', '/api/health', { host: 'bad host' })).toThrow(TypeError);
    expect(() => requestOf(incoming('TRACE', '/api/health', { host: 'localhost' }))).toThrow(TypeError);
  });

  it('gives the caller’s address as a Headers would', () => {
    const headers = { host: 'localhost', 'x-integration-peer-address': '127.0.0.1' };
    expect(clientAddress(requestOf(incoming('GET', '/', headers)).headers)).toBe(
      clientAddress(standardRequest('GET', '/', headers).headers),
    );
  });
});
