import { describe, expect, it } from 'vitest';
import { throttleAddress } from './throttle-address';

describe('throttleAddress', () => {
  it('keys an IPv4 client by its address', () => {
    expect(throttleAddress('198.51.100.4')).toBe('198.51.100.4');
    expect(throttleAddress('198.51.100.5')).toBe('198.51.100.5');
  });

  it('keys IPv4-mapped IPv6, dotted or in hex, as the IPv4 address', () => {
    expect(throttleAddress('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(throttleAddress('::FFFF:198.51.100.4')).toBe('198.51.100.4');
    expect(throttleAddress('::ffff:c633:6404')).toBe('198.51.100.4');
    expect(throttleAddress('0:0:0:0:0:ffff:c633:6404')).toBe('198.51.100.4');
  });

  it('keys every address of one IPv6 /64 alike, however it is written', () => {
    const key = '2001:db8:a:b::/64';
    for (const address of [
      '2001:db8:a:b::1',
      '2001:db8:a:b:ffff:ffff:ffff:ffff',
      '2001:0DB8:000A:000B:1234:5678:9abc:def0',
      '2001:db8:a:b::198.51.100.4',
      '2001:db8:a:b:0:0:0:0',
    ]) {
      expect(throttleAddress(address), address).toBe(key);
    }
  });

  it('keeps neighbouring /64s and prefixes with zero groups apart', () => {
    expect(throttleAddress('2001:db8:a:c::1')).toBe('2001:db8:a:c::/64');
    expect(throttleAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(throttleAddress('2001:db8:0:0:1::1')).toBe('2001:db8:0:0::/64');
    expect(throttleAddress('::1')).toBe('0:0:0:0::/64');
    expect(throttleAddress('::')).toBe('0:0:0:0::/64');
    // Not IPv4-mapped: only ::ffff:0:0/96 is.
    expect(throttleAddress('::198.51.100.4')).toBe('0:0:0:0::/64');
    expect(throttleAddress('64:ff9b::198.51.100.4')).toBe('64:ff9b:0:0::/64');
  });

  it('ignores an IPv6 zone', () => {
    expect(throttleAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('uses anything that is not an address as it is', () => {
    for (const value of ['unknown', '198.51.100.4:8080', '[2001:db8::1]', '', 'not an address']) expect(throttleAddress(value)).toBe(value);
  });
});
