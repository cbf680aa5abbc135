import { describe, expect, it } from 'vitest';
import { classifyAddress, embeddedIpv4, isForbiddenTarget, parseAllowList, parseIpv4, type Resolve } from './ssrf.ts';

const noNetwork: Resolve = async (host) => {
  throw new Error(`test must not resolve ${host}`);
};
const fakeDns =
  (table: Record<string, string[]>): Resolve =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found;
  };

describe('classifyAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['192.0.0.170', 'reserved (IETF protocol assignments)'],
    ['192.0.2.5', 'reserved (documentation)'],
    ['198.18.0.1', 'reserved (benchmarking)'],
    ['198.51.100.7', 'reserved (documentation)'],
    ['203.0.113.9', 'reserved (documentation)'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'private (unique local)'],
    ['fd12:3456::1', 'private (unique local)'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'reserved (documentation)'],
  ])('refuses %s (%s)', (ip, reason) => {
    expect(classifyAddress(ip)).toBe(reason);
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['::ffff:169.254.169.254', 'cloud metadata'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'cloud metadata'],
    ['2002:c0a8:0101::1', 'private'],
  ])('refuses IPv4 %s hidden in IPv6 (%s)', (ip, reason) => {
    expect(classifyAddress(ip)).toContain(reason);
  });

  it.each(['2130706433', '0177.0.0.1', '0x7f000001', '127.1', '0x7f.1', '017700000001', '0x7F.0.0.01'])('refuses loopback spelled %s', (ip) => {
    expect(classifyAddress(ip)).toBe('loopback');
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::6810:85e5', '::ffff:8.8.8.8', '64:ff9b::808:808'])('allows public %s', (ip) => {
    expect(classifyAddress(ip)).toBeNull();
  });

  it('says a hostname is not an address', () => {
    expect(classifyAddress('example.com')).toBe('not an IP address');
  });
});

describe('parseIpv4 and embeddedIpv4', () => {
  it('normalises the legacy spellings browsers accept', () => {
    expect(parseIpv4('2130706433')).toBe('127.0.0.1');
    expect(parseIpv4('0300.0250.0.1')).toBe('192.168.0.1');
    expect(parseIpv4('10.1')).toBe('10.0.0.1');
    expect(parseIpv4('192.168.257')).toBe('192.168.1.1');
    expect(parseIpv4('256.0.0.1')).toBeNull();
    expect(parseIpv4('4294967296')).toBeNull();
    expect(parseIpv4('08.0.0.1')).toBeNull();
    expect(parseIpv4('example.com')).toBeNull();
  });
  it('extracts mapped and translated IPv4', () => {
    expect(embeddedIpv4('::ffff:7f00:1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::ffff:192.168.0.1')).toBe('192.168.0.1');
    expect(embeddedIpv4('2001:db8::1')).toBeNull();
    expect(embeddedIpv4('::1')).toBeNull();
  });
});

describe('isForbiddenTarget', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0x7f000001/', 'loopback'],
    ['http://0177.0.0.1/', 'loopback'],
    ['http://127.1:8080/', 'loopback'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:7f00:1]/', 'loopback'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://[fd00:ec2::254]/', 'cloud metadata'],
    ['https://10.0.0.5/', 'private'],
  ])('refuses %s without a DNS query', async (url, reason) => {
    const verdict = await isForbiddenTarget(url, { resolve: noNetwork });
    expect(verdict).toMatchObject({ ok: false, kind: 'forbidden' });
    expect(verdict.ok || verdict.reason).toContain(reason);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/', 'gopher://example.com/', 'javascript:alert(1)', 'chrome://settings', 'not a url'])(
    'refuses %s',
    async (url) => {
      expect(await isForbiddenTarget(url, { resolve: noNetwork })).toMatchObject({ ok: false, kind: 'forbidden' });
    },
  );

  it('refuses credentials in the URL', async () => {
    expect(await isForbiddenTarget('http://user:pw@93.184.215.14/', { resolve: noNetwork })).toMatchObject({ ok: false, kind: 'forbidden' });
  });

  it('refuses a host when any one of its addresses is forbidden', async () => {
    const resolve = fakeDns({
      'rebind.example': ['93.184.215.14', '127.0.0.1'],
      'public.example': ['93.184.215.14', '2606:4700::1'],
      localhost: ['::1', '127.0.0.1'],
    });
    expect(await isForbiddenTarget('http://rebind.example/', { resolve })).toMatchObject({ ok: false, reason: 'the host resolves to a loopback address' });
    expect(await isForbiddenTarget('http://localhost:3000/', { resolve })).toMatchObject({ ok: false, kind: 'forbidden' });
    expect(await isForbiddenTarget('https://public.example/a', { resolve })).toEqual({ ok: true, addresses: ['93.184.215.14', '2606:4700::1'] });
  });

  it("reports an unresolvable host apart from a forbidden one, without the resolver's text", async () => {
    const failing: Resolve = async (host) => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host} via 10.0.0.2`), { code: 'ENOTFOUND' });
    };
    expect(await isForbiddenTarget('http://nowhere.invalid/', { resolve: failing })).toEqual({
      ok: false,
      kind: 'unresolvable',
      reason: 'the host could not be resolved',
    });
    expect(await isForbiddenTarget('http://empty.example/', { resolve: fakeDns({ 'empty.example': [] }) })).toEqual({
      ok: false,
      kind: 'unresolvable',
      reason: 'the host could not be resolved',
    });
  });

  it.each([
    ['10.1.2.3', 'a private'],
    ['172.20.0.9', 'a private'],
    ['192.168.7.7', 'a private'],
    ['100.100.0.1', 'a carrier-grade NAT'],
    ['169.254.169.254', 'a cloud metadata'],
    ['169.254.3.4', 'a link-local'],
    ['0.0.0.0', 'an unspecified'],
    ['127.3.4.5', 'a loopback'],
    ['fd12::9', 'a private (unique local)'],
    ['fe80::1', 'a link-local'],
    ['::ffff:10.9.8.7', 'a private (IPv4 inside IPv6)'],
    ['::1', 'a loopback'],
  ])('says a name resolving to %s is %s address, never which address', async (address, kind) => {
    const verdict = await isForbiddenTarget('http://inside.example/', { resolve: fakeDns({ 'inside.example': [address] }) });
    expect(verdict).toEqual({ ok: false, kind: 'forbidden', reason: `the host resolves to ${kind} address` });
    const literal = await isForbiddenTarget(`http://${address.includes(':') ? `[${address}]` : address}/`, { resolve: noNetwork });
    expect(literal.ok || literal.reason).toBe(`the host is ${kind} address`);
  });

  it('exempts only the allow-listed CIDRs', async () => {
    const allow = parseAllowList('127.0.0.2/32, 10.9.0.0/16');
    expect(await isForbiddenTarget('http://127.0.0.2:8080/', { resolve: noNetwork, allow })).toMatchObject({ ok: true });
    expect(await isForbiddenTarget('http://10.9.3.4/', { resolve: noNetwork, allow })).toMatchObject({ ok: true });
    expect(await isForbiddenTarget('http://[::ffff:127.0.0.2]/', { resolve: noNetwork, allow })).toMatchObject({ ok: true });
    expect(await isForbiddenTarget('http://127.0.0.1:8080/', { resolve: noNetwork, allow })).toMatchObject({ ok: false });
    expect(await isForbiddenTarget('http://2130706433/', { resolve: noNetwork, allow })).toMatchObject({ ok: false });
    expect(() => parseAllowList('nonsense')).toThrow(/ALLOW_PRIVATE_TARGETS/);
  });
});
