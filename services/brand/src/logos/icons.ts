/** favicon_url, icon_url, apple_touch_icon from `<link>` tags (hrefs are already absolute). */
import type { LinkTag, Resource } from '@enrich/shared/contracts';

export type SiteIcons = { favicon_url: string | null; icon_url: string | null; apple_touch_icon: string | null; mask_icon: string | null };

const rels = (l: LinkTag): string[] => l.rel.toLowerCase().split(/\s+/);

/** Largest side declared in `sizes` ("32x32 16x16", "any" for scalable). */
function declaredSize(l: LinkTag): number {
  if (/\bany\b/i.test(l.sizes ?? '') || /\.svg(\?|$)/i.test(l.href) || l.type === 'image/svg+xml') return 10_000;
  const sizes = [...(l.sizes ?? '').matchAll(/(\d+)x(\d+)/gi)].map((m) => Math.max(Number(m[1]), Number(m[2])));
  return sizes.length ? Math.max(...sizes) : 0;
}

function largest(links: LinkTag[]): string | null {
  return [...links].sort((a, b) => declaredSize(b) - declaredSize(a))[0]?.href ?? null;
}

export function siteIcons(links: readonly LinkTag[], resources: readonly Resource[]): SiteIcons {
  const http = links.filter((l) => /^https?:|^data:image\//i.test(l.href));
  const icons = http.filter((l) => rels(l).includes('icon'));
  const apple = http.filter((l) => rels(l).some((r) => r.startsWith('apple-touch-icon')));
  const mask = http.filter((l) => rels(l).includes('mask-icon'));
  // The classic favicon: `shortcut icon` or an .ico, else the smallest declared icon (what tabs show).
  const classic = icons.find((l) => rels(l).includes('shortcut') || /\.ico(\?|$)/i.test(l.href));
  const smallestFirst = [...icons].sort((a, b) => (declaredSize(a) || 10_001) - (declaredSize(b) || 10_001));
  // Browsers ask for /favicon.ico by themselves; when it loaded, it exists even if no tag names it.
  const fetched = resources.find((r) => /\/favicon\.ico(\?|$)/i.test(r.url) && r.status !== null && r.status < 400)?.url ?? null;
  return {
    favicon_url: classic?.href ?? smallestFirst[0]?.href ?? fetched,
    icon_url: largest(icons),
    apple_touch_icon: largest(apple),
    mask_icon: mask[0]?.href ?? null,
  };
}
