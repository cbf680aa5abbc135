/**
 * Logo candidates and their scores. Every signal in the snapshot adds or removes evidence (a raw
 * score in "log-odds-like" units); the raw score maps to [0,1] by a logistic curve. What matters
 * most, from the failures of other logo extractors:
 * - a logo is declared (JSON-LD `logo`, og:logo), or sits early in the header, links to the home
 *   page and is named "logo" or after the brand (alt, file name, class/id, ancestors);
 * - partner and customer strips ("trusted by", rows of same-size logos in main) look like logos
 *   by every name signal, so a group of look-alike images outside the header is penalised
 *   as a group, as are images inside containers named partner/client/customer/sponsor/press;
 * - icons (favicon, apple-touch, mask-icon) are candidates, but weak ones: they win only when no
 *   real logo exists;
 * - tracking pixels and spacers are never candidates.
 */
import type { Image, Logo, Snapshot, Svg } from '../contracts/index.ts';
import { absoluteUrl } from '../page/meta.ts';
import { mentionsBrand } from '../page/brand-name.ts';
import { isExternalLink, isHomeLink } from '../page/links.ts';
import type { SiteIcons } from './icons.ts';
import { isTrackingImage } from './tracking.ts';

export type LogoCandidate = {
  url: string;
  /** logoRasters refs that name this candidate: `img:3`, `svg:0`, `url:https://...`. */
  refs: string[];
  source: string;
  isSvg: boolean;
  raw: number;
  /** Why, for tests and debugging: "header", "home-link", "partner-strip", ... */
  signals: string[];
};

export type LogoFacts = Pick<Snapshot, 'finalUrl' | 'images' | 'svgs' | 'viewport'> & {
  brandNames: readonly string[];
  jsonLdLogos: readonly string[];
  /** og:logo / itemprop=logo meta content. */
  metaLogo: string | null;
  /** `itemprop="logo"` on img/link/a/meta (microdata), absolute. */
  microdataLogos: readonly string[];
  icons: SiteIcons;
};

/** Sources of site-icon candidates (the rest are logos: declared or shown on the page). */
export const ICON_SOURCES: ReadonlySet<string> = new Set(['apple-touch-icon', 'mask-icon', 'icon', 'favicon']);

/** The raw scores of site icons: weak, so that they win only where no logo is declared or shown. */
export const ICON_RAW = { 'apple-touch-icon': 1.2, 'mask-icon': 0.9, icon: 0.8, favicon: 0.5 } as const;
/** A candidate above this outranks every site icon, whichever icons the site turns out to have. */
export const MAX_ICON_RAW = Math.max(...Object.values(ICON_RAW));

/** Page elements need at least this raw score to be called a logo at all. */
export const MIN_ELEMENT_RAW = 2.5;

/** The page's top band, where a header is whatever its markup: the band the `top` signal rewards. */
const TOP_BAND_PX = 150;

const LOGO_WORD = /logo|brand|wordmark|logotype|site-?title|site-?name|masthead/i;
// Someone else's logo: English, and the same words in German, French, Spanish, Italian, Portuguese and Dutch
// (Referenzen, Kunden, partenaires, références, patrocinadores, klanten, Zahlungsarten, paiement, Zertifikate, …).
const NOT_OWN_LOGO =
  /partner|client|customer|sponsor|trusted|featured|press|award|badge|payment|integration|as-?seen|testimonial|carousel|slider|avatar|author|user-|profile|flag|social|share|app-?store|google-?play|store-badge|certif|member|vendor|supplier|affiliat|referenz|kunden|partenaire|référence|referencias|referenze|referenties|patrocin|klant|opdrachtgever|zahlung|paiement|pagos|pagamento|betaal|zertifi|auszeichnung|mitglied|membre|lieferant|fournisseur|proveedor|fornitor/iu;
const SOCIAL_HOST = /(^|\.)(facebook|twitter|x|linkedin|instagram|youtube|github|pinterest|tiktok|t\.me|whatsapp)\.com$/i;

export function logoScore(raw: number): number {
  return Math.round((1 / (1 + Math.exp(-(raw - MIN_ELEMENT_RAW) / 1.2))) * 100) / 100;
}

function fileName(src: string): string {
  if (src.startsWith('data:')) return '';
  try {
    return decodeURIComponent(new URL(src).pathname.split('/').pop() ?? '');
  } catch {
    return '';
  }
}

/** Size as shown (box) or, without layout, as declared; null when unknown. */
function shownSize(el: { box: Image['box'] }, natural?: { w: number; h: number }): { w: number; h: number } | null {
  if (el.box && el.box.width > 0 && el.box.height > 0) return { w: el.box.width, h: el.box.height };
  if (natural && natural.w > 0 && natural.h > 0) return natural;
  return null;
}

function svgDeclaredSize(markup: string): { w: number; h: number } | undefined {
  const head = markup.slice(0, 2000);
  const w = /\swidth="(\d+(?:\.\d+)?)(px)?"/.exec(head);
  const h = /\sheight="(\d+(?:\.\d+)?)(px)?"/.exec(head);
  if (w && h) return { w: Number(w[1]), h: Number(h[1]) };
  const vb = /viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(head);
  return vb ? { w: Number(vb[1]), h: Number(vb[2]) } : undefined;
}

type ElementEvidence = Pick<Image, 'id' | 'className' | 'title' | 'ariaLabel' | 'box' | 'visible' | 'region' | 'linkHref' | 'ancestorHints'> & {
  alt: string | null;
  file: string;
  size: { w: number; h: number } | null;
  kind: 'img' | 'background' | 'svg';
};

/** The evidence of one image or inline SVG; returns raw score and the signals that made it. */
export function scoreElement(el: ElementEvidence, facts: LogoFacts): { raw: number; signals: string[] } {
  let raw = 0;
  const signals: string[] = [];
  const add = (points: number, signal: string): void => {
    raw += points;
    signals.push(signal);
  };
  const own = [el.id, el.className, el.alt, el.title, el.ariaLabel].filter(Boolean).join(' ');
  const ownLogo = LOGO_WORD.test(own);
  if (ownLogo) add(2.5, 'logo-attr');
  else if (LOGO_WORD.test(el.file)) add(2, 'logo-file');
  else if (LOGO_WORD.test(el.ancestorHints)) add(1.5, 'logo-ancestor');
  if (NOT_OWN_LOGO.test(`${own} ${el.ancestorHints} ${el.file}`)) add(-3.5, 'third-party-context');
  if ([el.alt, el.title, el.ariaLabel, el.file.replace(/\.\w+$/, '')].some((t) => mentionsBrand(t, facts.brandNames))) add(1.5, 'brand-name');

  if (el.region === 'header') add(2, 'header');
  else if (el.region === 'nav') add(1.5, 'nav');
  else if (el.region === 'footer') add(0.3, 'footer');
  else if (el.region === 'main') add(-0.5, 'main');
  else if (el.region === 'aside') add(-1, 'aside');

  if (isHomeLink(el.linkHref, facts.finalUrl)) add(1.5, 'home-link');
  else if (el.linkHref && isSocialLink(el.linkHref)) add(-4, 'social-icon');
  else if (isExternalLink(el.linkHref, facts.finalUrl)) add(-1.5, 'external-link');

  if (el.box) {
    if (el.box.y < TOP_BAND_PX) add(1, 'top');
    else if (el.box.y < 400) add(0.5, 'near-top');
    else if (el.box.y > 2000) add(-1, 'far-down');
    if (el.box.x < facts.viewport.width / 2) add(0.3, 'left');
  }
  if (el.size) {
    const { w, h } = el.size;
    if (w < 12 || h < 12) add(-3, 'tiny');
    else if (w <= 24 && h <= 24) add(-1.5, 'icon-size');
    if (w > 700 || h > 300) add(-2, 'too-large');
    const aspect = w / h;
    if (aspect > 12 || aspect < 0.25) add(-1, 'odd-aspect');
  }
  if (!el.visible) add(-2, 'hidden');
  if (el.kind === 'background') add(-0.5, 'css-background');
  return { raw, signals };
}

function isSocialLink(href: string): boolean {
  try {
    return SOCIAL_HOST.test(new URL(href).hostname);
  } catch {
    return false;
  }
}

/** Standalone SVG document for an inline `<svg>`: outerHTML in HTML documents often lacks the namespace. */
export function svgDataUri(markup: string): string {
  const withNs = /^<svg\b[^>]*\sxmlns=/i.test(markup) ? markup : markup.replace(/^<svg\b/i, '<svg xmlns="http://www.w3.org/2000/svg"');
  return 'data:image/svg+xml;base64,' + Buffer.from(withNs, 'utf8').toString('base64');
}

function imageEvidence(img: Image): ElementEvidence {
  return {
    ...img,
    file: fileName(img.src),
    size: shownSize(img, { w: img.naturalWidth, h: img.naturalHeight }),
    kind: img.kind,
  };
}

function svgEvidence(svg: Svg): ElementEvidence {
  return { ...svg, alt: null, file: '', size: shownSize(svg, svgDeclaredSize(svg.markup)), kind: 'svg' };
}

/**
 * Partner strips: three or more look-alike images outside header/nav that share their ancestors
 * (the same list markup) or sit on one row at one height. Not in the page's top band: a page whose
 * header is a row of images (a table layout sliced into cells, no header element) shows its own logo
 * there, and no "trusted by" strip sits above the first 150 px.
 */
function partnerStripMembers(images: readonly Image[]): Set<number> {
  const members = new Set<number>();
  const outside = images.filter((i) => i.region !== 'header' && i.region !== 'nav' && !(i.box && i.box.height > 0 && i.box.y < TOP_BAND_PX));
  const groups = new Map<string, Image[]>();
  for (const img of outside) {
    const keys: string[] = [];
    if (img.ancestorHints.trim()) keys.push('a:' + img.ancestorHints.trim());
    if (img.box && img.box.height > 0) keys.push(`r:${Math.round(img.box.y / 20)}:${Math.round(img.box.height / 8)}`);
    for (const k of keys) groups.set(k, [...(groups.get(k) ?? []), img]);
  }
  for (const group of groups.values()) if (group.length >= 3) group.forEach((i) => members.add(i.index));
  return members;
}

/** Below the bar but still the site's own-looking mark: named after the brand or "logo", nobody else's. */
const FALLBACK_MIN_RAW = -1;
const OWN_SIGNALS = new Set(['logo-attr', 'logo-file', 'logo-ancestor', 'brand-name']);
const FOREIGN_SIGNALS = new Set(['third-party-context', 'social-icon', 'external-link', 'partner-strip', 'hidden', 'tiny']);

/** Images and inline SVGs at or above MIN_ELEMENT_RAW, and the best own-looking one below it. */
function elementCandidates(facts: LogoFacts): { accepted: LogoCandidate[]; fallback: LogoCandidate | null } {
  const accepted: LogoCandidate[] = [];
  let fallback: LogoCandidate | null = null;
  const consider = (c: LogoCandidate): void => {
    if (c.raw >= MIN_ELEMENT_RAW) accepted.push(c);
    else if (
      c.raw >= FALLBACK_MIN_RAW &&
      c.signals.some((x) => OWN_SIGNALS.has(x)) &&
      !c.signals.some((x) => FOREIGN_SIGNALS.has(x)) &&
      (!fallback || c.raw > fallback.raw)
    ) {
      fallback = { ...c, signals: [...c.signals, 'fallback'] };
    }
  };
  const strip = partnerStripMembers(facts.images);
  for (const img of facts.images) {
    if (isTrackingImage(img)) continue;
    const { raw, signals } = scoreElement(imageEvidence(img), facts);
    const inStrip = strip.has(img.index);
    consider({
      url: img.src,
      refs: [`img:${img.index}`, `url:${img.src}`],
      source: img.region === 'header' || img.region === 'nav' ? 'header' : 'img',
      isSvg: isSvgUrl(img.src),
      raw: raw - (inStrip ? 3 : 0),
      signals: inStrip ? [...signals, 'partner-strip'] : signals,
    });
  }
  for (const svg of facts.svgs) {
    if (svg.truncated) continue;
    const { raw, signals } = scoreElement(svgEvidence(svg), facts);
    // An inline SVG is usually the site's own artwork, not a hot-linked third-party file.
    consider({
      url: svgDataUri(svg.markup),
      refs: [`svg:${svg.index}`],
      source: svg.region === 'header' || svg.region === 'nav' ? 'header' : 'svg',
      isSvg: true,
      raw: raw + 0.3,
      signals,
    });
  }
  return { accepted, fallback };
}

const isSvgUrl = (u: string): boolean => /^data:image\/svg\+xml|\.svg(\?|#|$)/i.test(u);

export function scoreLogoCandidates(facts: LogoFacts): LogoCandidate[] {
  const byUrl = new Map<string, LogoCandidate>();
  const put = (c: LogoCandidate): void => {
    const seen = byUrl.get(c.url);
    if (!seen) {
      byUrl.set(c.url, c);
      return;
    }
    // A site icon that is also a logo candidate confirms nothing about it being the logo: it only
    // adds its ref. So the ranking of logos never depends on the icons (the renderer ranks before
    // it knows every loaded resource, and must reach the same order as the brand analyzer).
    if (ICON_SOURCES.has(c.source) && !ICON_SOURCES.has(seen.source)) {
      byUrl.set(c.url, { ...seen, refs: [...new Set([...seen.refs, ...c.refs])] });
      return;
    }
    // The same file found twice (declared in JSON-LD and shown in the header) is stronger than either.
    const [strong, weak] = seen.raw >= c.raw ? [seen, c] : [c, seen];
    byUrl.set(c.url, {
      ...strong,
      source: seen.source === 'jsonld' || c.source === 'jsonld' ? 'jsonld' : strong.source,
      raw: strong.raw + Math.min(1, Math.max(0, weak.raw) / 3),
      refs: [...new Set([...strong.refs, ...weak.refs])],
      signals: [...strong.signals, 'confirmed'],
    });
  };
  for (const href of facts.jsonLdLogos) {
    const url = absoluteUrl(href, facts.finalUrl);
    if (url) put({ url, refs: [`url:${url}`], source: 'jsonld', isSvg: isSvgUrl(url), raw: 4.5, signals: ['jsonld'] });
  }
  for (const url of facts.microdataLogos) {
    put({ url, refs: [`url:${url}`], source: 'microdata', isSvg: isSvgUrl(url), raw: 4, signals: ['microdata'] });
  }
  const metaLogo = absoluteUrl(facts.metaLogo, facts.finalUrl);
  if (metaLogo) put({ url: metaLogo, refs: [`url:${metaLogo}`], source: 'og', isSvg: isSvgUrl(metaLogo), raw: 3.5, signals: ['og-logo'] });

  const shown = elementCandidates(facts);
  shown.accepted.forEach(put);
  // A page that declares no logo and shows none above the bar still has its best own-looking
  // element reported, weakly (low score), rather than nothing.
  if (shown.fallback && byUrl.size === 0) put(shown.fallback);

  const icon = (href: string | null, source: string, raw: number): void => {
    if (href) put({ url: href, refs: [`url:${href}`], source, isSvg: isSvgUrl(href), raw, signals: [source] });
  };
  icon(facts.icons.apple_touch_icon, 'apple-touch-icon', ICON_RAW['apple-touch-icon']);
  icon(facts.icons.mask_icon, 'mask-icon', ICON_RAW['mask-icon']);
  if (facts.icons.icon_url !== facts.icons.favicon_url) icon(facts.icons.icon_url, 'icon', ICON_RAW.icon);
  icon(facts.icons.favicon_url, 'favicon', ICON_RAW.favicon);

  return [...byUrl.values()].sort((a, b) => b.raw - a.raw);
}

export type LogoChoice = { primary: LogoCandidate | null; secondary: LogoCandidate[] };

const MAX_SECONDARY = 5;

export function chooseLogos(candidates: readonly LogoCandidate[]): LogoChoice {
  const [primary, ...rest] = candidates;
  return { primary: primary ?? null, secondary: rest.slice(0, MAX_SECONDARY) };
}

export function toLogo(c: LogoCandidate): Logo {
  return { url: c.url, source: c.source, score: logoScore(c.raw), isSvg: c.isSvg };
}
