import 'server-only';
import { env } from '@/lib/config/env';
import { PEER_ADDRESS_HEADER } from './entry-headers';
import { unmapped } from '@/lib/config/trusted-proxies';

/**
 * The caller's address, for rate limits and logs. It starts from the TCP peer, which the server
 * entry point (scripts/server-entry.mjs) writes into PEER_ADDRESS_HEADER over anything a caller
 * sent. Only when that peer is one of TRUSTED_PROXIES is X-Forwarded-For read, from the right:
 * each trusted proxy appends the address it received from, so the first untrusted entry is the
 * client; entries further left were written by the client itself and mean nothing.
 *
 * Without the entry point (`next dev`) the peer header is absent and the address is Next's
 * X-Forwarded-For, which a caller can set: development only.
 */
type HeaderSource = Headers | Record<string, unknown> | undefined;

function header(headers: HeaderSource, name: string): string | undefined {
  if (!headers) return undefined;
  // A Headers, or one like it (the lean API server's, lib/api-server/request.ts), or a plain record.
  const value = typeof headers.get === 'function' ? (headers as Headers).get(name) : (headers as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function hops(forwardedFor: string | undefined): string[] {
  return (forwardedFor ?? '')
    .split(',')
    .map((hop) => unmapped(hop.trim()))
    .filter(Boolean);
}

export function clientAddress(headers: HeaderSource): string {
  const peer = header(headers, PEER_ADDRESS_HEADER);
  const forwarded = hops(header(headers, 'x-forwarded-for'));
  if (!peer) return forwarded[0] ?? 'unknown';
  const proxies = env().TRUSTED_PROXIES;
  let address = unmapped(peer);
  for (let index = forwarded.length - 1; index >= 0 && proxies.matches(address); index--) address = forwarded[index]!;
  return address;
}

/** Whether the request came through a trusted proxy, whose X-Forwarded-Host/-Proto are then believed. */
export function fromTrustedProxy(headers: HeaderSource): boolean {
  const peer = header(headers, PEER_ADDRESS_HEADER);
  return peer !== undefined && env().TRUSTED_PROXIES.matches(peer);
}
