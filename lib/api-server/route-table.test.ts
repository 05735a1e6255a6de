import { describe, expect, it } from 'vitest';
import { RouteTable, type RouteModule } from './route-table';
import { servedByApiServer } from './paths.mjs';

/** Path matching of the lean API server, as Next's App Router matches the same route files. */
const moduleNamed = (name: string): RouteModule => ({ GET: () => Promise.resolve(new Response(name)) });
const table = new RouteTable([
  { pattern: '/api/[[...unknown]]', module: moduleNamed('unknown') },
  { pattern: '/api/v2/hooks/[id]', module: moduleNamed('hook') },
  { pattern: '/api/v2/hooks/[id]/segredo', module: moduleNamed('secret') },
  { pattern: '/api/v2/hooks', module: moduleNamed('list') },
  { pattern: '/api/v2/hooks/novo', module: moduleNamed('static') },
]);
const nameOf = async (path: string) => {
  const matched = table.match(path);
  return matched
    ? { name: await (await matched.module.GET!(new Request('http://x'), { params: Promise.resolve({}) })).text(), params: matched.params }
    : undefined;
};

describe('lean API server route table', () => {
  it('matches static segments before dynamic ones, and dynamic ones before a catch-all', async () => {
    expect(await nameOf('/api/v2/hooks')).toEqual({ name: 'list', params: {} });
    expect(await nameOf('/api/v2/hooks/novo')).toEqual({ name: 'static', params: {} });
    expect(await nameOf('/api/v2/hooks/abc')).toEqual({ name: 'hook', params: { id: 'abc' } });
    expect(await nameOf('/api/v2/hooks/abc/segredo')).toEqual({ name: 'secret', params: { id: 'abc' } });
    expect(await nameOf('/api/v2/hooks/abc/outra')).toEqual({ name: 'unknown', params: { unknown: ['v2', 'hooks', 'abc', 'outra'] } });
    expect(await nameOf('/api')).toEqual({ name: 'unknown', params: {} });
    expect(await nameOf('/console')).toBeUndefined();
  });

  it('decodes params as Next does, and throws for a path that does not decode', async () => {
    expect((await nameOf('/api/v2/hooks/a%20b'))?.params).toEqual({ id: 'a b' });
    expect(() => table.match('/api/v2/hooks/%E0%A4%A')).toThrow(URIError);
  });

  it('leaves the console sign-in and the reference page to Next', () => {
    expect(servedByApiServer('/api/v1/agendamentos/slots-livres/reservar')).toBe(true);
    expect(servedByApiServer('/api/health')).toBe(true);
    expect(servedByApiServer('/api/auth/callback/credentials')).toBe(false);
    expect(servedByApiServer('/api/docs')).toBe(false);
    expect(servedByApiServer('/api/docsx')).toBe(true);
    expect(servedByApiServer('/webhooks')).toBe(false);
  });
});
