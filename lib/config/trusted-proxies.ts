import { BlockList, isIP } from 'node:net';

/**
 * TRUSTED_PROXIES: the load balancers and reverse proxies whose forwarding headers are believed, as
 * a comma-separated list of addresses and CIDR blocks (`10.0.0.0/8, 192.0.2.7, fd00::/8`). Pure
 * parsing (no server imports) so lib/config/env.ts can validate the setting at start.
 */
export type TrustedProxies = { matches(address: string): boolean; readonly empty: boolean };

export function parseTrustedProxies(value: string | undefined): TrustedProxies | { error: string } {
  const list = new BlockList();
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (family === 0 || extra !== undefined || !Number.isInteger(bits) || bits < 0 || bits > (family === 6 ? 128 : 32)) {
      return { error: `"${entry}" is not an IP address or CIDR block` };
    }
    list.addSubnet(address, bits, type);
  }
  return {
    empty: entries.length === 0,
    matches(candidate) {
      const address = unmapped(candidate);
      const family = isIP(address);
      return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

/** `::ffff:127.0.0.1`, as a dual-stack socket reports an IPv4 peer, is the IPv4 address. */
export function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}
