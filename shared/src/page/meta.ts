/** Small readers over snapshot facts shared by the extractors: meta tags and URL resolution. */
import type { Snapshot } from '../contracts/index.ts';

/** Content of the first meta tag whose name, property or itemprop equals one of `keys` (case-insensitive), in key order. */
export function metaContent(snapshot: Pick<Snapshot, 'meta'>, ...keys: string[]): string | null {
  for (const key of keys) {
    const k = key.toLowerCase();
    const tag = snapshot.meta.find(
      (m) => m.property?.toLowerCase() === k || m.name?.toLowerCase() === k || m.itemprop?.toLowerCase() === k,
    );
    const content = tag?.content.trim();
    if (content) return content;
  }
  return null;
}

/** An absolute http(s) or data: URL, or null when `href` cannot be one. */
export function absoluteUrl(href: string | null | undefined, base: string): string | null {
  if (!href) return null;
  const h = href.trim();
  if (/^data:/i.test(h)) return h;
  try {
    const u = new URL(h, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** The registrable-ish label of a host: "acme" for www.acme.co.uk, shop.acme.com, acme.io. */
export function domainLabel(url: string): string {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
  const parts = host.replace(/^www\d?\./, '').split('.');
  if (parts.length <= 1) return parts[0] ?? '';
  // Second-level public suffixes (co.uk, com.au, ...) push the label one step left.
  const sld = parts.length >= 3 && /^(co|com|net|org|gov|ac|edu|ne|or)$/.test(parts[parts.length - 2]!);
  return parts[parts.length - (sld ? 3 : 2)] ?? '';
}
