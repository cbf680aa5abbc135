/**
 * Microdata read from the HTML text: `itemprop="logo"` on `<img>` (src), `<link>`/`<a>` (href) or
 * `<meta>` (content), as schema.org Organization markup writes it. One linear pass over the tags,
 * attributes bounded, so a large page costs a scan and nothing more.
 */
import { decodeEntities } from './entities.ts';

const TAG = /<(img|link|meta|a)\b([^>]{0,3000})>/gi;
const ITEMPROP_LOGO = /\bitemprop\s*=\s*["']?(?:[^"'>]*\s)?logo(?:[\s"'>]|$)/i;
const MAX_LOGOS = 10;

function attribute(attrs: string, name: string): string | null {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(attrs);
  return m ? decodeEntities((m[1] ?? m[2] ?? m[3] ?? '').trim()) : null;
}

/** The document's base URL: `<base href>` resolved against the page URL, else the page URL. */
export function documentBase(html: string, pageUrl: string): string {
  const head = html.slice(0, 200_000);
  const base = /<base\b([^>]{0,2000})>/i.exec(head);
  const href = base ? attribute(base[1]!, 'href') : null;
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl).href;
  } catch {
    return pageUrl;
  }
}

/** `itemprop="logo"` values, absolute (against `<base href>`), in document order. */
export function microdataLogos(html: string, pageUrl: string): string[] {
  const base = documentBase(html, pageUrl);
  const out: string[] = [];
  for (const m of html.matchAll(TAG)) {
    const attrs = m[2]!;
    if (!ITEMPROP_LOGO.test(attrs)) continue;
    const tag = m[1]!.toLowerCase();
    const raw = tag === 'img' ? (attribute(attrs, 'src') ?? attribute(attrs, 'data-src')) : tag === 'meta' ? attribute(attrs, 'content') : attribute(attrs, 'href');
    if (!raw) continue;
    try {
      const u = new URL(raw, base);
      if (/^(https?|data):$/.test(u.protocol) && !out.includes(u.href)) out.push(u.href);
    } catch { /* not a URL */ }
    if (out.length >= MAX_LOGOS) break;
  }
  return out;
}
