/**
 * favicon_url, icon_url, apple_touch_icon (and the mask icon) from `<link>` tags (hrefs are already
 * absolute), the linked manifest's icons and the probed `/favicon.ico` (snapshot.siteIcons).
 */
import type { LinkTag, Resource, SiteIconLookup } from '../contracts/index.ts';

export type SiteIcons = { favicon_url: string | null; icon_url: string | null; apple_touch_icon: string | null; mask_icon: string | null };

type Icon = Pick<LinkTag, 'href' | 'sizes' | 'type'> & { rels: string[] };

/** Every rel=...icon... variant browsers know: icon, shortcut icon, apple-touch-icon(-precomposed), mask-icon, fluid-icon. */
const rels = (l: Pick<LinkTag, 'rel'>): string[] => l.rel.toLowerCase().split(/\s+/);

/** Largest side declared in `sizes` ("32x32 16x16", "any" for scalable). */
function declaredSize(l: Pick<Icon, 'sizes' | 'href' | 'type'>): number {
  if (/\bany\b/i.test(l.sizes ?? '') || /\.svg(\?|$)/i.test(l.href) || l.type === 'image/svg+xml') return 10_000;
  const sizes = [...(l.sizes ?? '').matchAll(/(\d+)x(\d+)/gi)].map((m) => Math.max(Number(m[1]), Number(m[2])));
  return sizes.length ? Math.max(...sizes) : 0;
}

function largest(icons: readonly Icon[]): string | null {
  return [...icons].sort((a, b) => declaredSize(b) - declaredSize(a))[0]?.href ?? null;
}

/** Manifest icons as icon links; maskable-only icons are cropped by the platform, so they come last. */
function manifestIcons(lookup: SiteIconLookup | undefined): Icon[] {
  const icons = (lookup?.manifest ?? []).map((i) => ({
    href: i.src,
    sizes: i.sizes,
    type: i.type,
    rels: ['icon', 'manifest'],
    maskable: /^\s*maskable\s*$/i.test(i.purpose ?? ''),
  }));
  return [...icons.filter((i) => !i.maskable), ...icons.filter((i) => i.maskable)];
}

export function siteIcons(links: readonly LinkTag[], resources: readonly Resource[], lookup?: SiteIconLookup): SiteIcons {
  const http = links.filter((l) => /^https?:|^data:image\//i.test(l.href)).map((l) => ({ ...l, rels: rels(l) }));
  const declared = http.filter((l) => l.rels.includes('icon'));
  const apple = http.filter((l) => l.rels.some((r) => r.startsWith('apple-touch-icon')));
  const mask = http.filter((l) => l.rels.includes('mask-icon'));
  // The classic favicon: `shortcut icon` or an .ico, else the smallest declared icon (what tabs show).
  const classic = declared.find((l) => l.rels.includes('shortcut') || /\.ico(\?|$)/i.test(l.href));
  const smallestFirst = [...declared].sort((a, b) => (declaredSize(a) || 10_001) - (declaredSize(b) || 10_001));
  // Browsers ask for /favicon.ico by themselves; when it loaded (or the renderer's probe found it), it exists.
  const fetched = resources.find((r) => /\/favicon\.ico(\?|$)/i.test(r.url) && r.status !== null && r.status < 400)?.url ?? lookup?.favicon ?? null;
  return {
    favicon_url: classic?.href ?? smallestFirst[0]?.href ?? fetched,
    icon_url: largest([...declared, ...manifestIcons(lookup)]),
    apple_touch_icon: largest(apple),
    mask_icon: mask[0]?.href ?? null,
  };
}

/** The manifest link of the page, if any (`<link rel="manifest">`), for the renderer to read. */
export function manifestHref(links: readonly Pick<LinkTag, 'rel' | 'href'>[]): string | null {
  return links.find((l) => rels(l).includes('manifest') && /^https?:/i.test(l.href))?.href ?? null;
}

/** True when the page declares any icon (so the renderer need not probe /favicon.ico). */
export function declaresIcon(links: readonly Pick<LinkTag, 'rel' | 'href'>[]): boolean {
  return links.some((l) => rels(l).some((r) => r === 'icon' || r.startsWith('apple-touch-icon')));
}

/** The icons of a web app manifest's text, absolute against the manifest URL; [] when it is not one. */
export function parseManifestIcons(text: string, manifestUrl: string, max: number): SiteIconLookup['manifest'] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const icons = doc && typeof doc === 'object' ? (doc as Record<string, unknown>)['icons'] : null;
  if (!Array.isArray(icons)) return [];
  const out: SiteIconLookup['manifest'] = [];
  const str = (v: unknown): string | null => (typeof v === 'string' ? v.slice(0, 200) : null);
  for (const icon of icons) {
    if (out.length >= max || !icon || typeof icon !== 'object') break;
    const i = icon as Record<string, unknown>;
    if (typeof i['src'] !== 'string') continue;
    try {
      const src = new URL(i['src'], manifestUrl);
      if (/^https?:$/.test(src.protocol) && src.href.length <= 8192)
        out.push({ src: src.href, sizes: str(i['sizes']), type: str(i['type']), purpose: str(i['purpose']) });
    } catch {
      /* not a URL */
    }
  }
  return out;
}
