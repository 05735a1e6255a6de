import { isIP } from 'node:net';

/**
 * The part of a caller's address that brute-force counters count against (login-throttle.ts).
 * - IPv4: the address. One address is one client, or one NAT of many (the address limits leave room for that).
 * - IPv6: its /64. A subscriber's link is given at least a /64 and hosts pick their own addresses in it
 *   (SLAAC, RFC 8981 temporary addresses), so whoever has one can use a fresh address for every
 *   guess: keyed by the exact address, no limit would ever be reached.
 * - IPv4-mapped IPv6 (`::ffff:192.0.2.1`, or `::ffff:c000:201`), as dual-stack sockets and some
 *   proxies write an IPv4 client: the IPv4 address, so both spellings share one counter.
 * Anything else (`unknown`, a proxy's entry that is not an address) is used as it is.
 */
export function throttleAddress(address: string): string {
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return address;
  const groups = ipv6Groups(address.split('%')[0]!); // a zone (`fe80::1%eth0`) names the host's interface, not the client
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address that node:net's isIP accepted (`::` expanded, a dotted IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index);
    if (!text.endsWith('::')) text = text.slice(0, -1); // the ':' before the IPv4 part
  }
  const [head = '', rest] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const before = parse(head);
  const after = [...(rest === undefined ? [] : parse(rest)), ...tail];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}
