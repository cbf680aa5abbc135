/**
 * SSRF guard: decides whether the browser (renderer) or a webhook delivery (edge) may talk to a URL. Pure apart from the injected resolver,
 * so every forbidden range is unit-tested without a network request.
 */
import { BlockList, isIP } from 'node:net';
import { lookup } from 'node:dns/promises';

export type Resolve = (hostname: string) => Promise<string[]>;

/** Every address the system resolver returns for a name (A and AAAA), as the browser could pick any. */
export const resolveAll: Resolve = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const V4_RANGES: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.169.254', 32, 'cloud metadata'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved (IETF protocol assignments)'],
  ['192.0.2.0', 24, 'reserved (documentation)'],
  ['192.88.99.0', 24, 'reserved (6to4 relay)'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved (benchmarking)'],
  ['198.51.100.0', 24, 'reserved (documentation)'],
  ['203.0.113.0', 24, 'reserved (documentation)'],
  ['224.0.0.0', 4, 'multicast'],
  ['255.255.255.255', 32, 'broadcast'],
  ['240.0.0.0', 4, 'reserved'],
];

const V6_RANGES: Array<[string, number, string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fd00:ec2::254', 128, 'cloud metadata'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved (site-local)'],
  ['ff00::', 8, 'multicast'],
  ['100::', 64, 'reserved (discard)'],
  ['2001:db8::', 32, 'reserved (documentation)'],
  ['2001::', 23, 'reserved (IETF protocol assignments)'],
];

function rangeList(ranges: Array<[string, number, string]>, family: 'ipv4' | 'ipv6'): Array<{ list: BlockList; reason: string }> {
  return ranges.map(([net, prefix, reason]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, family);
    return { list, reason };
  });
}
const V4 = rangeList(V4_RANGES, 'ipv4');
const V6 = rangeList(V6_RANGES, 'ipv6');

/** Expands an IPv6 literal (no brackets, no zone) to its eight 16-bit groups, or null. */
function ipv6Groups(ip: string): number[] | null {
  let s = ip.toLowerCase();
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  let tail: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const parts = v4[1]!.split('.').map(Number);
    tail = [(parts[0]! << 8) | parts[1]!, (parts[2]! << 8) | parts[3]!];
    s = s.slice(0, -v4[1]!.length) + '0:0';
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (h: string): number[] => (h === '' ? [] : h.split(':').map((g) => parseInt(g, 16)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const groups = [...head, ...new Array<number>(Math.max(fill, 0)).fill(0), ...rest];
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;
  if (tail.length) groups.splice(6, 2, ...tail);
  return groups;
}

const v4FromGroups = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), else null. */
export function embeddedIpv4(ip: string): string | null {
  const g = ipv6Groups(ip);
  if (!g) return null;
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return v4FromGroups(g[6]!, g[7]!); // ::ffff:a.b.c.d (mapped)
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return v4FromGroups(g[6]!, g[7]!); // ::ffff:0:a.b.c.d (translated)
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return v4FromGroups(g[6]!, g[7]!); // ::a.b.c.d (compatible, deprecated)
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return v4FromGroups(g[6]!, g[7]!); // 64:ff9b::/96 (NAT64)
  if (g[0] === 0x2002) return v4FromGroups(g[1]!, g[2]!); // 2002::/16 (6to4)
  return null;
}

/**
 * Parses the IPv4 spellings a URL host or resolver may use: dotted with 1-4 parts, each decimal,
 * octal (leading 0) or hex (0x) — `2130706433`, `0177.0.0.1`, `0x7f000001`, `127.1`. Null if not IPv4.
 */
export function parseIpv4(host: string): string | null {
  const parts = host.split('.');
  if (parts.length > 4 || parts.some((p) => p === '')) return null;
  const nums: number[] = [];
  for (const p of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(p)) n = p.length === 2 ? 0 : parseInt(p.slice(2), 16);
    else if (/^0[0-7]+$/.test(p)) n = parseInt(p, 8);
    else if (/^(0|[1-9]\d*)$/.test(p)) n = Number(p);
    else return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  let value = last;
  nums.forEach((n, i) => {
    value += n * 256 ** (3 - i);
  });
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** Why an IP address must not be contacted, or null when it is a public unicast address. */
export function classifyAddress(ip: string): string | null {
  const raw = ip.replace(/^\[|\]$/g, '');
  const v4 = isIP(raw) === 4 ? raw : parseIpv4(raw);
  if (v4) {
    for (const { list, reason } of V4) if (list.check(v4, 'ipv4')) return reason;
    return null;
  }
  if (isIP(raw.split('%')[0]!) !== 6) return 'not an IP address';
  const embedded = embeddedIpv4(raw);
  if (embedded) {
    const inner = classifyAddress(embedded);
    if (inner) return `${inner} (IPv4 inside IPv6)`;
  }
  const plain = raw.split('%')[0]!;
  for (const { list, reason } of V6) if (list.check(plain, 'ipv6')) return reason;
  return null;
}

/** CIDR list (`127.0.0.2/32,10.1.0.0/16`) exempt from the guard: tests and local development only. */
export function parseAllowList(cidrs: string): BlockList {
  const list = new BlockList();
  for (const item of cidrs
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [net, prefixText] = item.split('/');
    const family = isIP(net!) === 6 ? 'ipv6' : isIP(net!) === 4 ? 'ipv4' : null;
    if (!family) throw new Error(`ALLOW_PRIVATE_TARGETS: "${item}" is not a CIDR`);
    const prefix = prefixText === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefixText);
    list.addSubnet(net!, prefix, family);
  }
  return list;
}

function isAllowed(ip: string, allow: BlockList | undefined): boolean {
  if (!allow) return false;
  const v4 = isIP(ip) === 4 ? ip : embeddedIpv4(ip);
  if (v4) return allow.check(v4, 'ipv4');
  return isIP(ip) === 6 && allow.check(ip, 'ipv6');
}

export const UNRESOLVABLE = 'the host could not be resolved';

const article = (word: string): string => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/**
 * A verdict's `reason` is written for the API client: it says why in general terms and never
 * contains an address the host resolved to or the resolver's error text.
 */
export type TargetVerdict = { ok: true; addresses: string[] } | { ok: false; kind: 'forbidden' | 'unresolvable'; reason: string };

/**
 * Checks a URL the browser is about to request: scheme, then every address its host resolves to.
 * One forbidden address is enough to refuse, since the browser may connect to any of them.
 */
export async function isForbiddenTarget(url: string, opts: { resolve: Resolve; allow?: BlockList }): Promise<TargetVerdict> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, kind: 'forbidden', reason: 'not a valid URL' };
  }
  const scheme = parsed.protocol;
  if (scheme !== 'http:' && scheme !== 'https:' && scheme !== 'ws:' && scheme !== 'wss:') {
    return { ok: false, kind: 'forbidden', reason: `scheme ${scheme} is not allowed (http and https only)` };
  }
  if (parsed.username || parsed.password) {
    // Credentials in URLs are a classic parser-confusion vector and no public page needs them.
    return { ok: false, kind: 'forbidden', reason: 'URLs with credentials are not allowed' };
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host) ? host : parseIpv4(host);
  let addresses: string[];
  if (literal) addresses = [literal];
  else {
    try {
      addresses = await opts.resolve(host);
    } catch {
      // The resolver's own text (ENOTFOUND, getaddrinfo, the DNS server) stays inside.
      return { ok: false, kind: 'unresolvable', reason: UNRESOLVABLE };
    }
    if (addresses.length === 0) return { ok: false, kind: 'unresolvable', reason: UNRESOLVABLE };
  }
  for (const address of addresses) {
    if (isAllowed(address, opts.allow)) continue;
    const why = classifyAddress(address);
    // Says which kind of address, never which one: a name's addresses are internal knowledge.
    if (why) return { ok: false, kind: 'forbidden', reason: `the host ${literal ? 'is' : 'resolves to'} ${article(why)} ${why} address` };
  }
  return { ok: true, addresses };
}

/**
 * `RESOLVE_OVERRIDES` (tests and evaluation only): `host=ip` pairs, comma-separated, `*` for every
 * name, so a saved page can be loaded under its real domain from a local server. The SSRF verdict
 * still applies to the overridden address, which ALLOW_PRIVATE_TARGETS must allow.
 */
export function parseResolveOverrides(spec: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([*a-z0-9.-]+)=([0-9a-f.:]+)$/i.exec(part);
    if (!m || isIP(m[2]!) === 0) throw new Error(`"${part}" is not host=ip`);
    map.set(m[1]!.toLowerCase(), m[2]!);
  }
  return map;
}

export function withResolveOverrides(overrides: Map<string, string>, base: Resolve): Resolve {
  if (overrides.size === 0) return base;
  return async (hostname) => {
    // An address written as the host is never overridden, so refusals of literal addresses stay as they are.
    if (isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return base(hostname);
    const hit = overrides.get(hostname.toLowerCase()) ?? overrides.get('*');
    return hit ? [hit] : base(hostname);
  };
}
