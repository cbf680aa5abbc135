/**
 * The one logo decision: every logo and icon candidate of a page, ranked once by the same pure
 * function for the renderer (which rasterises the top logos in this order) and for the brand
 * analyzer (whose primary logo is the top candidate and whose logo colours come from that
 * candidate's raster). Both call it on the same snapshot facts, so they cannot disagree.
 */
import type { Snapshot } from '../contracts/index.ts';
import { brandNames } from '../page/brand-name.ts';
import { organizationFacts } from '../page/jsonld.ts';
import { metaContent } from '../page/meta.ts';
import { microdataLogos } from '../page/microdata.ts';
import { siteIcons, type SiteIcons } from './icons.ts';
import { ICON_SOURCES, scoreLogoCandidates, type LogoCandidate } from './score.ts';

/** The snapshot facts the ranking reads; the renderer has all of them before it rasterises. */
export type LogoPage = Pick<Snapshot, 'finalUrl' | 'title' | 'meta' | 'links' | 'jsonLd' | 'html' | 'images' | 'svgs' | 'viewport' | 'resources' | 'siteIcons'>;

export type LogoRanking = { candidates: LogoCandidate[]; icons: SiteIcons };

export function rankLogoCandidates(page: LogoPage): LogoRanking {
  const icons = siteIcons(page.links, page.resources, page.siteIcons);
  const candidates = scoreLogoCandidates({
    finalUrl: page.finalUrl,
    images: page.images,
    svgs: page.svgs,
    viewport: page.viewport,
    brandNames: brandNames(page),
    jsonLdLogos: organizationFacts(page).logos,
    microdataLogos: microdataLogos(page.html, page.finalUrl),
    metaLogo: metaContent(page, 'og:logo', 'logo'),
    icons,
  });
  return { candidates, icons };
}

/** Logos, not site icons: the candidates worth a raster (icons are often opaque squares whose colours are the platform's tile). */
export function isLogoCandidate(c: LogoCandidate): boolean {
  return !ICON_SOURCES.has(c.source);
}

/**
 * What the renderer rasterises, best first: the top `max` logo candidates, each by its element as
 * shown (`img:<i>` / `svg:<i>`) when the page shows it, else by its URL (`url:<abs>`).
 */
export function rasterPlan(candidates: readonly LogoCandidate[], max: number): string[] {
  return candidates
    .filter(isLogoCandidate)
    .slice(0, max)
    .map((c) => c.refs.find((r) => /^(img|svg):/.test(r)) ?? c.refs[0]!)
    .filter(Boolean);
}
