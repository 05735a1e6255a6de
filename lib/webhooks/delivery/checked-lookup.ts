import dns, { type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { isPrivateHost } from '../configurations/url-policy';

/**
 * Connect-time SSRF check (issue 10 §5): the product's resolver and the address policy. The
 * delivery resolves a target's name itself, checks every address against the same
 * loopback/private/link-local/CGNAT/metadata policy as the save-time check, and connects only to
 * what it checked (connection/guarded.ts): a DNS answer that changes between check and connect
 * (rebinding) cannot reach inside.
 */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export class BlockedTargetError extends Error {
  readonly code = 'EBLOCKEDTARGET';
  constructor(readonly hostname: string) {
    super('the receiver resolves to a private or reserved address');
  }
}

/** A resolver with the system's rules (/etc/hosts included), or one asking these DNS servers. */
export function resolverFor(servers: readonly string[] | undefined): Resolve {
  if (!servers?.length) return (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });
  const resolver = new dns.promises.Resolver({ timeout: 3000, tries: 2 });
  resolver.setServers([...servers]);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
}

/** True when an IP address is one the policy refuses. */
export function isBlockedAddress(address: string): boolean {
  return isPrivateHost(isIP(address) === 6 ? `[${new URL(`http://[${address}]`).hostname.slice(1, -1)}]` : address);
}
