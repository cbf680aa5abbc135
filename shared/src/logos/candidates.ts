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
import { ICON_SOURCES, MAX_ICON_RAW, scoreLogoCandidates, type LogoCandidate } from './score.ts';

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
    metaLogo: metaContent(page, 'og:logo', 'logo') ?? shareImageThatIsTheLogo(page),
    icons,
  });
  return { candidates, icons };
}

/**
 * The share image when the page says it is the logo: its file is named for one ("…/brand-logo.png",
 * "logo@2x.png") or its alt text says so ("Acme logo"). Sites with an inline SVG mark and no icon
 * often give their logo file only there; a hero photo or a product shot is no logo.
 */
function shareImageThatIsTheLogo(page: Pick<Snapshot, 'meta'>): string | null {
  const image = metaContent(page, 'og:image', 'og:image:url', 'twitter:image');
  if (!image) return null;
  const file = image.split(/[?#]/)[0]!.split('/').pop() ?? '';
  const alt = metaContent(page, 'og:image:alt', 'twitter:image:alt') ?? '';
  return /logo/i.test(file) || /\blogo\b/i.test(alt) ? image : null;
}

/** Logos, not site icons: the candidates worth a raster (icons are often opaque squares whose colours are the platform's tile). */
export function isLogoCandidate(c: LogoCandidate): boolean {
  return !ICON_SOURCES.has(c.source);
}

/**
 * What the renderer rasterises: the top candidate, which is the brand analyzer's primary logo and
 * the only one whose raster is read (its colours are the logo colours, services/brand/src/colors/
 * brand.ts). Its refs in order, the element as shown (`img:<i>` / `svg:<i>`) first, then by URL
 * (`url:<abs>`); the renderer stops at the first that rasterises. Nothing when the top candidate is
 * a site icon. Rasterising the next five candidates as well cost /enrich about 130 ms of element
 * screenshots that nothing read (test/bench/trace-breakdown.ts, span `render.logos`).
 */
export function rasterPlan(candidates: readonly LogoCandidate[]): string[] {
  const top = candidates[0];
  if (!top || !isLogoCandidate(top)) return [];
  const shown = top.refs.filter((r) => /^(img|svg):/.test(r));
  return [...shown, ...top.refs.filter((r) => !shown.includes(r))];
}

/**
 * The first ref of the raster plan when the site icons cannot change it, before they are known (the
 * manifest and `/favicon.ico` lookups may still run, the network log may still grow): the ranking's
 * top candidate is a logo that outranks every site icon, and icons only add `url:` refs, which come
 * after the shown ones. Null when the icons could still decide. The renderer rasterises this ref from
 * its file while the page is captured; the brand analyzer's ranking of the whole snapshot has the
 * same top candidate.
 */
export function firstRasterRefBeforeIcons(page: LogoPage): string | null {
  const top = rankLogoCandidates(page).candidates[0];
  if (!top || !isLogoCandidate(top) || top.raw <= MAX_ICON_RAW) return null;
  return rasterPlan([top])[0] ?? null;
}
