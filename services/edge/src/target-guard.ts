/**
 * The edge's own early refusal of targets that can only be internal: `localhost` names and literal IP
 * addresses in private, loopback, link-local, CGNAT, multicast, reserved or metadata ranges. It saves
 * a render (and a reservation) for URLs that could never be enriched; the renderer's DNS-level guard
 * stays the real one (names that RESOLVE to such addresses are its to refuse). The message says why
 * in general terms and never repeats an address (DESIGN.md: no internal address in error messages).
 * ALLOW_PRIVATE_TARGETS (tests and the local demo only; refused with NODE_ENV=production) exempts CIDRs.
 */
import { BlockList, isIP } from 'node:net';
import { UrlForbiddenError } from '@enrich/shared/errors';
import { ipv6Groups } from './rate-limit/client-ip.ts';

const FORBIDDEN_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
];
// IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it maps.
const FORBIDDEN_V6 = ['::/127', '64:ff9b::/96', '100::/64', '2001:db8::/32', 'fc00::/7', 'fe80::/10', 'ff00::/8'];

export const PRIVATE_TARGET_MESSAGE =
  'Invalid query parameter "url": its host is a private or loopback address, which cannot be enriched; give a public http:// or https:// URL';

function blockList(cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [addr, bits] = cidr.split('/') as [string, string | undefined];
    const family = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(addr, family);
    else list.addSubnet(addr, Number(bits), family);
  }
  return list;
}

// Separate lists: node's BlockList lets IPv6 rules match IPv4 addresses (through the mapped form).
const FORBIDDEN = { ipv4: blockList(FORBIDDEN_V4), ipv6: blockList(FORBIDDEN_V6) };

/** The address to judge and its family: an IPv4-mapped IPv6 address is its IPv4 address. */
function judged(host: string): { addr: string; type: 'ipv4' | 'ipv6' } | null {
  const family = isIP(host);
  if (family === 0) return null;
  if (family === 4) return { addr: host, type: 'ipv4' };
  const g = ipv6Groups(host);
  if (g && g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return { addr: `${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}`, type: 'ipv4' };
  return { addr: host, type: 'ipv6' };
}

/** A check for normalised target URLs; `allow` are CIDRs exempt from it. */
export function targetGuard(allow: string[]): (href: string) => string {
  const allowed = blockList(allow);
  return (href) => {
    const host = new URL(href).hostname
      .replace(/^\[|\]$/g, '')
      .replace(/\.$/, '')
      .toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost')) {
      // RFC 6761: always loopback, whatever a resolver says.
      if (!allowed.check('127.0.0.1', 'ipv4') && !allowed.check('::1', 'ipv6')) throw new UrlForbiddenError(PRIVATE_TARGET_MESSAGE);
      return href;
    }
    const ip = judged(host);
    if (ip && FORBIDDEN[ip.type].check(ip.addr, ip.type) && !allowed.check(ip.addr, ip.type)) throw new UrlForbiddenError(PRIVATE_TARGET_MESSAGE);
    return href;
  };
}
