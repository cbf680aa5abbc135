/**
 * Builds a `Snapshot` from raw HTML without a browser: no layout (boxes are null, everything counts
 * as visible), no computed styles, no rasters. For fast unit tests and corpus iteration of the
 * analyzers; the real snapshots come from the renderer (services/renderer).
 */
import { parse, type HTMLElement } from 'node-html-parser';
import { SnapshotSchema, type Region, type Snapshot } from '@enrich/shared/contracts';

function abs(href: string | undefined, base: string): string | null {
  if (!href) return null;
  const h = href.trim();
  if (/^(mailto|tel|data):/i.test(h)) return h;
  try {
    return new URL(h, base).href;
  } catch {
    return null;
  }
}

function regionOf(el: HTMLElement): Region {
  for (let n: HTMLElement | null = el; n; n = n.parentNode as HTMLElement | null) {
    const tag = n.tagName?.toLowerCase();
    const role = n.getAttribute?.('role');
    if (tag === 'header' || role === 'banner') return 'header';
    if (tag === 'nav' || role === 'navigation') return 'nav';
    if (tag === 'footer' || role === 'contentinfo') return 'footer';
    if (tag === 'aside' || role === 'complementary') return 'aside';
    if (tag === 'main' || role === 'main') return 'main';
  }
  return 'other';
}

function ancestorHints(el: HTMLElement): string {
  const hints: string[] = [];
  let n = el.parentNode as HTMLElement | null;
  for (let i = 0; i < 3 && n && n.tagName; i++, n = n.parentNode as HTMLElement | null) {
    for (const a of ['id', 'class', 'alt']) {
      const v = n.getAttribute(a);
      if (v) hints.push(v);
    }
  }
  return hints.join(' ').slice(0, 500);
}

function closestHref(el: HTMLElement, base: string): string | null {
  for (let n: HTMLElement | null = el; n && n.tagName; n = n.parentNode as HTMLElement | null) {
    if (n.tagName.toLowerCase() === 'a') return abs(n.getAttribute('href'), base);
  }
  return null;
}

const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'option',
]);
/**
 * The element's text as a browser's innerText gives it: whitespace between inline nodes is one space
 * (a line break in the source inside a paragraph too), block elements and <br> break lines.
 */
function innerText(el: HTMLElement): string {
  const parts: string[] = [];
  const walk = (n: HTMLElement): void => {
    for (const c of n.childNodes) {
      if (c.nodeType === 3) parts.push(c.text.replace(/\s+/g, ' '));
      else if (c.nodeType === 1) {
        const tag = (c as HTMLElement).rawTagName?.toLowerCase() ?? '';
        if (tag === 'br') parts.push('\n');
        else if (tag === 'script' || tag === 'style' || tag === 'template') continue;
        else if (BLOCK_TAGS.has(tag)) {
          parts.push('\n');
          walk(c as HTMLElement);
          parts.push('\n');
        } else walk(c as HTMLElement);
      }
    }
  };
  walk(el);
  return parts
    .join('')
    .split('\n')
    .map((l) => l.replace(/ +/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

const text = (el: HTMLElement | null | undefined): string => (el ? innerText(el) : '');

export function snapshotFromHtml(html: string, url: string): Snapshot {
  const root = parse(html, { comment: false, blockTextElements: { script: true, style: true, noscript: false, pre: true } });
  const baseHref = root.querySelector('base')?.getAttribute('href');
  const base = abs(baseHref, url) ?? url;
  const attr = (el: HTMLElement, a: string): string | null => el.getAttribute(a) ?? null;

  const body = root.querySelector('body') ?? root;
  const visibleRoot = parse(body.toString());
  visibleRoot.querySelectorAll('script, style, noscript, template').forEach((n) => n.remove());

  const snapshot: Snapshot = {
    requestedUrl: url,
    finalUrl: url,
    status: 200,
    title: text(root.querySelector('title')).slice(0, 2000),
    lang: root.querySelector('html')?.getAttribute('lang') ?? null,
    html: html.slice(0, 8_000_000),
    meta: root
      .querySelectorAll('meta')
      .slice(0, 500)
      .filter((m) => m.getAttribute('content') !== undefined)
      .map((m) => ({
        name: attr(m, 'name'),
        property: attr(m, 'property'),
        httpEquiv: attr(m, 'http-equiv'),
        itemprop: attr(m, 'itemprop'),
        content: (m.getAttribute('content') ?? '').slice(0, 8192),
      })),
    links: root
      .querySelectorAll('link[href]')
      .slice(0, 500)
      .flatMap((l) => {
        const href = abs(l.getAttribute('href'), base);
        return href ? [{ rel: l.getAttribute('rel') ?? '', href, type: attr(l, 'type'), sizes: attr(l, 'sizes'), media: attr(l, 'media') }] : [];
      }),
    jsonLd: root
      .querySelectorAll('script[type="application/ld+json"]')
      .slice(0, 100)
      .map((s) => s.rawText.slice(0, 500_000)),
    stylesheets: root
      .querySelectorAll('style')
      .slice(0, 200)
      .map((s) => ({ url: null, text: s.rawText.slice(0, 2_000_000) })),
    scripts: [],
    anchors: root
      .querySelectorAll('a[href], area[href]')
      .slice(0, 3000)
      .flatMap((a) => {
        const href = abs(a.getAttribute('href'), base);
        return href
          ? [
              {
                href,
                // An image map's area is a link named by its alt text.
                text: (a.tagName === 'AREA' ? (a.getAttribute('alt') ?? '') : text(a)).slice(0, 300),
                title: attr(a, 'title'),
                ariaLabel: attr(a, 'aria-label'),
                rel: attr(a, 'rel'),
                region: regionOf(a),
                box: null,
                visible: true,
              },
            ]
          : [];
      }),
    images: root
      .querySelectorAll('img, object[data], embed[src]')
      .slice(0, 1000)
      .flatMap((img, index) => {
        // As the renderer reads them (collect/elements.ts): a lazy loader's data-src over its placeholder (a
        // data: pixel or a file named for it), and an image file drawn by <object data> or <embed src>.
        const tag = img.tagName.toLowerCase();
        const lazy = img.getAttribute('data-src') ?? img.getAttribute('data-lazy-src') ?? img.getAttribute('data-original');
        const own = img.getAttribute(tag === 'object' ? 'data' : 'src');
        const placeholder =
          !own ||
          own.startsWith('data:') ||
          /(?:^|\/)[^/?#]*(?:placeholder|blank|spacer|transparent|lazy|loading|pixel|empty)[^/?#]*\.(?:gif|png|svg|jpe?g|webp)(?:[?#]|$)/i.test(own);
        const src = abs(lazy && placeholder ? lazy : (own ?? lazy ?? undefined), base);
        if (!src) return [];
        if (tag !== 'img' && !((img.getAttribute('type') ?? '').startsWith('image/') || /\.(?:svg|png|jpe?g|gif|webp)(?:[?#]|$)/i.test(src))) return [];
        const w = Number(img.getAttribute('width')) || 0;
        const h = Number(img.getAttribute('height')) || 0;
        return [
          {
            index,
            id: attr(img, 'id'),
            className: attr(img, 'class'),
            title: attr(img, 'title'),
            ariaLabel: attr(img, 'aria-label'),
            box: null,
            visible: true,
            region: regionOf(img),
            linkHref: closestHref(img, base),
            ancestorHints: ancestorHints(img),
            src: src.slice(0, 8192),
            alt: tag === 'object' ? text(img).slice(0, 300) || null : attr(img, 'alt'),
            naturalWidth: w,
            naturalHeight: h,
            kind: 'img' as const,
          },
        ];
      }),
    svgs: root
      .querySelectorAll('svg')
      .slice(0, 200)
      .map((svg, index) => {
        const markup = svg.toString();
        return {
          index,
          id: attr(svg, 'id'),
          className: attr(svg, 'class'),
          title: text(svg.querySelector('title')) || null,
          ariaLabel: attr(svg, 'aria-label'),
          box: null,
          visible: true,
          region: regionOf(svg),
          linkHref: closestHref(svg, base),
          ancestorHints: ancestorHints(svg),
          markup: markup.slice(0, 100_000),
          truncated: markup.length > 100_000,
        };
      }),
    text: {
      visible: text(visibleRoot).slice(0, 200_000),
      headings: root
        .querySelectorAll('h1, h2, h3, h4, h5, h6')
        .slice(0, 300)
        .map((h) => ({ level: Number(h.tagName[1]), text: text(h).slice(0, 1000) })),
      nav: root
        .querySelectorAll('nav a, header a')
        .slice(0, 300)
        .map((a) => text(a).slice(0, 200))
        .filter(Boolean),
      header: visibleRoot.querySelectorAll('header, [role=banner]').map(text).join('\n').slice(0, 50_000),
      footer: visibleRoot.querySelectorAll('footer, [role=contentinfo]').map(text).join('\n').slice(0, 50_000),
    },
    styles: { colors: [], fonts: [], rootVariables: {} },
    resources: root
      .querySelectorAll('link[rel~=stylesheet][href], script[src]')
      .slice(0, 2000)
      .flatMap((n) => {
        const u = abs(n.getAttribute('href') ?? n.getAttribute('src'), base);
        return u ? [{ url: u, type: n.tagName.toLowerCase() === 'link' ? 'stylesheet' : 'script', status: null }] : [];
      }),
    thumbnail: null,
    logoRasters: [],
    viewport: { width: 1440, height: 900 },
    documentSize: { width: 1440, height: 900 },
    truncated: [],
  };
  return SnapshotSchema.parse(snapshot);
}
