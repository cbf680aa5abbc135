/**
 * Picks the elements worth rasterising as logo candidates. A cheap heuristic on purpose: the brand
 * analyzer does the real scoring; this only decides which few pixels to ship.
 */
import type { Image, MetaTag, Svg } from '@enrich/shared/contracts';

export interface LogoCandidate {
  ref: string;
  score: number;
}

const LOGO = /logo|brand|wordmark|emblem/i;

function isHomeLink(href: string | null, pageUrl: string): boolean {
  if (!href) return false;
  try {
    const u = new URL(href);
    const p = new URL(pageUrl);
    return u.host.replace(/^www\./, '') === p.host.replace(/^www\./, '') && (u.pathname === '/' || /^\/(index\.\w+|home|[a-z]{2}(-[a-z]{2})?\/?)$/i.test(u.pathname));
  } catch {
    return false;
  }
}

function scoreElement(el: Image | Svg, pageUrl: string): number {
  if (!el.visible || !el.box) return 0;
  const { width, height, y } = el.box;
  if (width < 12 || height < 8 || width > 800 || height > 400) return 0;
  let score = 0;
  if (el.region === 'header' || el.region === 'nav') score += 3;
  const hints = [el.id, el.className, el.ancestorHints, el.title, el.ariaLabel, 'alt' in el ? el.alt : null, 'src' in el ? el.src : null].filter(Boolean).join(' ');
  if (LOGO.test(hints)) score += 4;
  if (isHomeLink(el.linkHref, pageUrl)) score += 3;
  if (y < 200) score += 1;
  return score;
}

/** The JSON-LD `logo` (Organization and friends) or `og:logo` URL, absolute. */
export function declaredLogoUrl(jsonLd: string[], meta: MetaTag[], pageUrl: string): string | null {
  const found: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 6 || found.length) return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, depth + 1));
    const logo = (node as Record<string, unknown>).logo;
    if (typeof logo === 'string') found.push(logo);
    else if (logo && typeof logo === 'object') {
      const url = (logo as Record<string, unknown>).url ?? (logo as Record<string, unknown>).contentUrl;
      if (typeof url === 'string') found.push(url);
    }
    for (const v of Object.values(node as Record<string, unknown>)) visit(v, depth + 1);
  };
  for (const block of jsonLd) {
    try {
      visit(JSON.parse(block), 0);
    } catch { /* pages ship invalid JSON-LD; skip it */ }
    if (found.length) break;
  }
  const og = meta.find((m) => m.property === 'og:logo' || m.itemprop === 'logo')?.content;
  const raw = found[0] ?? og;
  if (!raw) return null;
  try {
    const u = new URL(raw, pageUrl);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** Up to `max` element candidates, best first (`img:<index>` / `svg:<index>`). */
export function pickLogoCandidates(images: Image[], svgs: Svg[], pageUrl: string, max: number): LogoCandidate[] {
  const scored: LogoCandidate[] = [
    ...images.map((img) => ({ ref: `img:${img.index}`, score: scoreElement(img, pageUrl) })),
    ...svgs.map((svg) => ({ ref: `svg:${svg.index}`, score: scoreElement(svg, pageUrl) })),
  ];
  return scored.filter((c) => c.score >= 3).sort((a, b) => b.score - a.score).slice(0, max);
}
