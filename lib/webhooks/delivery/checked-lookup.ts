import dns, { type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { isPrivateHost } from '../url-policy';

/**
 * Connect-time SSRF check (issue 10 §5). The delivery resolves the receiver's name itself, checks
 * every address against the same loopback/private/link-local/CGNAT/metadata policy as the
 * save-time check, and hands the socket exactly the addresses it checked: a DNS answer that
 * changes between check and connect (rebinding) cannot reach inside. Used as the `lookup` of the
 * HTTP request, so Node connects to what this returns and nothing else.
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

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** The `lookup` option for http(s).request: resolve, check every answer, connect only to checked ones. */
export function checkedLookup(resolve: Resolve, allowPrivateTargets: boolean) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (addresses) => {
        if (!allowPrivateTargets && addresses.some((entry) => isBlockedAddress(entry.address))) {
          return callback(new BlockedTargetError(hostname), '');
        }
        if (options.all) return callback(null, addresses);
        const first = addresses[0]!;
        callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
