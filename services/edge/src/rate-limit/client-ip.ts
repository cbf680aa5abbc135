/**
 * The per-IP limit's subject for a client address: IPv4 (and IPv4-mapped IPv6, which is the same
 * client) per address, IPv6 per prefix (default /64: one host, or one customer's LAN, usually holds a
 * whole /64 and can pick any address in it, so a per-address limit would be no limit at all).
 */
import { isIPv4, isIPv6 } from 'node:net';

/** `ip:<v4>` or `ip6:<prefix hex>/<bits>`; anything unparseable is limited as the literal text. */
export function ipSubject(ip: string | undefined, ipv6Prefix: number): string {
  if (!ip) return 'ip:unknown'; // no peer address (a closed socket): one shared window
  const addr = ip.replace(/%.*$/, ''); // an IPv6 zone id names an interface, not a client
  if (isIPv4(addr)) return `ip:${addr}`;
  const groups = isIPv6(addr) ? ipv6Groups(addr) : null;
  if (!groups) return `ip:${addr}`;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return `ip:${groups[6]! >> 8}.${groups[6]! & 0xff}.${groups[7]! >> 8}.${groups[7]! & 0xff}`;
  return `ip6:${maskedHex(groups, ipv6Prefix)}/${ipv6Prefix}`;
}

/** The eight 16-bit groups of a valid IPv6 address (with `::` and a dotted IPv4 tail expanded). */
export function ipv6Groups(addr: string): number[] | null {
  let text = addr.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const o = v4[1]!.split('.').map(Number);
    text = `${text.slice(0, -v4[1]!.length)}${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const [head, tail, ...more] = text.split('::');
  if (more.length > 0) return null;
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array<number>(Math.max(0, fill)).fill(0), ...t];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function maskedHex(groups: number[], bits: number): string {
  return groups
    .map((g, i) => {
      const keep = Math.max(0, Math.min(16, bits - i * 16));
      const mask = keep === 0 ? 0 : (0xffff << (16 - keep)) & 0xffff;
      return (g & mask).toString(16).padStart(4, '0');
    })
    .join('');
}
