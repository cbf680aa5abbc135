/**
 * Microdata and RDFa readers. Logos are read from the HTML text: `itemprop="logo"` on `<img>` (src), `<link>`/`<a>` (href) or
 * `<meta>` (content), as schema.org Organization markup writes it. One linear pass over the tags,
 * attributes bounded, so a large page costs a scan and nothing more. Items (scopes, their own
 * properties, the enclosing item) are read from a parsed DOM the caller owns; item types, for a
 * topic hint, by a scan of the text.
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
    const raw =
      tag === 'img' ? (attribute(attrs, 'src') ?? attribute(attrs, 'data-src')) : tag === 'meta' ? attribute(attrs, 'content') : attribute(attrs, 'href');
    if (!raw) continue;
    try {
      const u = new URL(raw, base);
      if (/^(https?|data):$/.test(u.protocol) && !out.includes(u.href)) out.push(u.href);
    } catch {
      /* not a URL */
    }
    if (out.length >= MAX_LOGOS) break;
  }
  return out;
}

/**
 * The part of a parsed element (node-html-parser's HTMLElement satisfies it) that the item readers
 * below use; shared/ stays free of the parser itself.
 */
export interface ItemElement<E extends ItemElement<E>> {
  getAttribute(name: string): string | undefined;
  hasAttribute(name: string): boolean;
  readonly tagName: string;
  readonly parentNode: E | null;
  readonly children: readonly E[];
}

/** The first type of an item: microdata `itemtype` or RDFa `typeof`, as written; '' when none. */
export function itemType<E extends ItemElement<E>>(el: E): string {
  const t = el.getAttribute('itemtype') ?? el.getAttribute('typeof') ?? '';
  return t.trim().split(/\s+/)[0] ?? '';
}

/** An item's element: microdata `itemscope` or RDFa `typeof`. */
export const isItemScope = <E extends ItemElement<E>>(el: E): boolean => el.hasAttribute('itemscope') || el.hasAttribute('typeof');

/** Property names an element carries (`itemprop` and RDFa `property`), as written. */
export const itemPropNames = <E extends ItemElement<E>>(el: E): string[] =>
  `${el.getAttribute('itemprop') ?? ''} ${el.getAttribute('property') ?? ''}`.trim().split(/\s+/).filter(Boolean);

/** The property elements that belong to `scope` itself, not to an item nested inside it, in document order. */
export function ownItemProps<E extends ItemElement<E>>(scope: E): Array<{ name: string; el: E }> {
  const out: Array<{ name: string; el: E }> = [];
  const walk = (el: E): void => {
    for (const c of el.children) {
      for (const name of itemPropNames(c)) out.push({ name, el: c });
      if (!isItemScope(c)) walk(c);
    }
  };
  walk(scope);
  return out;
}

/** The nearest item element above `el`, or null. */
export function enclosingItemScope<E extends ItemElement<E>>(el: E): E | null {
  for (let p = el.parentNode; p?.tagName; p = p.parentNode) if (isItemScope(p)) return p;
  return null;
}

/** schema.org types named by `itemtype` attributes in the first 2 MB of the HTML text (local names, e.g. `Dentist`). */
export function microdataItemTypes(html: string): string[] {
  const types: string[] = [];
  for (const m of html.slice(0, 2_000_000).matchAll(/itemtype\s*=\s*["']?https?:\/\/(?:www\.)?schema\.org\/([A-Za-z]+)/gi)) types.push(m[1]!);
  return types;
}
