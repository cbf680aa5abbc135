/**
 * Small readers over snapshot facts shared by the extractors: meta tags and URL resolution. A meta tag
 * is keyed by its name, property or itemprop, compared case-insensitively.
 */
import type { MetaTag, Snapshot } from '../contracts/index.ts';

const hasKey = (m: MetaTag, k: string): boolean => m.property?.toLowerCase() === k || m.name?.toLowerCase() === k || m.itemprop?.toLowerCase() === k;

/** Content of the first meta tag keyed by `keys[0]`, trimmed; when there is none or it is empty, the next key's, and so on. */
export function metaContent(snapshot: Pick<Snapshot, 'meta'>, ...keys: string[]): string | null {
  for (const key of keys) {
    const k = key.toLowerCase();
    const content = snapshot.meta.find((m) => hasKey(m, k))?.content.trim();
    if (content) return content;
  }
  return null;
}

/** Contents (as written) of every meta tag keyed by one of `keys`, in page order. */
export function metaContents(snapshot: Pick<Snapshot, 'meta'>, ...keys: string[]): string[] {
  const wanted = keys.map((k) => k.toLowerCase());
  return snapshot.meta.filter((m) => wanted.some((k) => hasKey(m, k))).map((m) => m.content);
}

/**
 * The content (or `value`, as some large news sites write it) of the first `<meta>` tag in the first
 * 300 kB of the HTML text that mentions `key`: for tags the snapshot's meta list loses. At most 40
 * characters, quotes required.
 */
export function metaContentFromHtml(html: string, key: string): string | null {
  const k = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const tag = new RegExp(`<meta[^>]{0,200}${k}[^>]{0,200}>`, 'i').exec(html.slice(0, 300_000))?.[0];
  return tag ? (/(?:content|value)\s*=\s*["']([^"']{1,40})["']/i.exec(tag)?.[1] ?? null) : null;
}

/** Content of the first `<meta http-equiv>` named `name` (case-insensitive), as written. */
export function metaHttpEquiv(snapshot: Pick<Snapshot, 'meta'>, name: string): string | null {
  const n = name.toLowerCase();
  return snapshot.meta.find((m) => m.httpEquiv?.toLowerCase() === n)?.content ?? null;
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
