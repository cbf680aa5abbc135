import { describe, expect, it } from 'vitest';
import { ipSubject, ipv6Groups } from './client-ip.ts';

describe('ipSubject', () => {
  it('limits IPv4 per address, and IPv4-mapped IPv6 as the same IPv4 client', () => {
    expect(ipSubject('203.0.113.7', 64)).toBe('ip:203.0.113.7');
    expect(ipSubject('::ffff:203.0.113.7', 64)).toBe('ip:203.0.113.7');
    expect(ipSubject('::FFFF:cb00:7107', 64)).toBe('ip:203.0.113.7');
  });
  it('limits IPv6 per prefix', () => {
    expect(ipSubject('2001:db8:1:2::1', 64)).toBe('ip6:20010db8000100020000000000000000/64');
    expect(ipSubject('2001:db8:1:2:ffff:ffff:ffff:ffff%eth0', 64)).toBe(ipSubject('2001:db8:1:2::1', 64));
    expect(ipSubject('2001:db8:1:3::1', 64)).not.toBe(ipSubject('2001:db8:1:2::1', 64));
    expect(ipSubject('2001:db8:1:2ff::1', 56)).toBe(ipSubject('2001:db8:1:200::1', 56));
    expect(ipSubject('2001:db8::1', 128)).not.toBe(ipSubject('2001:db8::2', 128));
    expect(ipSubject('::1', 64)).toBe('ip6:00000000000000000000000000000000/64');
  });
  it('expands IPv6 text forms', () => {
    expect(ipv6Groups('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('64:ff9b::192.0.2.33')).toEqual([0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x0221]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups('1::2::3')).toBeNull();
  });
});
