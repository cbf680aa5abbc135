/**
 * Scoring of brand output against corpus ground truth: pure functions, one verdict per field.
 * `found`: the output has a value; `correct`: it matches the truth (null when the record has no
 * truth for the field, so the rate is taken over records that do).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrandData } from '@enrich/shared/contracts';
import { parseCssColor } from '../../services/brand/src/colors/parse.ts';
import { labDistance, rgbToOklab } from '../../services/brand/src/colors/oklab.ts';
import { HALVES, type Half } from './split.ts';

export type BrandTruth = {
  page_id: string;
  source: string;
  url: string;
  domain: string;
  gt: { company_name?: string; twitter?: string; brand_hex?: string };
};

/**
 * A hand label of test/eval/labels/logos.jsonl: the logo and icon URLs a reader of the page's HTML
 * knows to be the site's own (absolute, resolved against <base href> or the page URL), and how.
 * An empty list means the HTML names none (a CSS-only logo, no icon link); such pages are not scored.
 */
export type LogoLabel = { page_id: string; logos: string[]; how: string };

export const LOGO_LABELS_PATH = join(import.meta.dirname, 'labels/logos.jsonl');

export function loadLogoLabels(path = LOGO_LABELS_PATH): Map<string, LogoLabel> {
  const labels = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LogoLabel);
  return new Map(labels.map((l) => [l.page_id, l]));
}

/**
 * A URL as the comparison sees it: no scheme (protocol-relative logos), no port (the HTTP eval serves
 * pages on a local port under their live host), no `www.`, percent-decoded, repeated slashes folded.
 */
export function comparableUrl(url: string): string {
  try {
    const u = new URL(url);
    let path = u.pathname;
    try {
      path = decodeURIComponent(path);
    } catch {
      /* keep it encoded */
    }
    return `${u.hostname.replace(/^www\./, '')}${path.replace(/\/{2,}/g, '/')}${u.search}`.toLowerCase();
  } catch {
    return url;
  }
}

/** Every URL the `logos` group reports: primary, secondary, favicon_url, icon_url, apple_touch_icon. */
export function reportedLogoUrls(logos: BrandData['logos']): string[] {
  return [logos.primary?.url, ...logos.secondary.map((l) => l.url), logos.favicon_url, logos.icon_url, logos.apple_touch_icon].filter((u): u is string => !!u);
}

/** A known logo or icon URL is among `logos`; null when the label knows none. */
export function knownLogoFound(label: LogoLabel | undefined, logos: BrandData['logos']): boolean | null {
  if (!label || label.logos.length === 0) return null;
  const reported = new Set(reportedLogoUrls(logos).map(comparableUrl));
  return label.logos.some((u) => reported.has(comparableUrl(u)));
}

export type FieldVerdict = { found: boolean; correct: boolean | null };
export type BrandVerdicts = Record<string, FieldVerdict>;

/** Two colors a viewer would call the same brand color (OKLab distance; 0.1 is a clearly visible step). */
export const SAME_BRAND_COLOR = 0.1;

export function twitterHandle(url: string | null | undefined): string | null {
  if (!url) return null;
  const m = /^https?:\/\/(?:www\.|mobile\.)?(?:twitter|x)\.com\/@?([\w]{1,30})/i.exec(url);
  return m ? m[1]!.toLowerCase() : null;
}

export function colorsMatch(hexA: string, hexB: string): boolean {
  const a = parseCssColor(hexA);
  const b = parseCssColor(hexB);
  return !!a && !!b && labDistance(rgbToOklab(a), rgbToOklab(b)) < SAME_BRAND_COLOR;
}

function compact(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function scoreBrand(truth: BrandTruth, out: BrandData, logoLabel?: LogoLabel): BrandVerdicts {
  const brandHexes = out.colors.brand_colors.map((c) => c.hex);
  const truthHex = truth.gt.brand_hex;
  const primary = out.logos.primary;
  const social = Object.values(out.social_links).filter(Boolean);
  const name = truth.gt.company_name ? compact(truth.gt.company_name) : '';
  return {
    'social.twitter': {
      found: out.social_links.twitter !== null,
      correct: truth.gt.twitter ? twitterHandle(out.social_links.twitter) === twitterHandle(truth.gt.twitter) : null,
    },
    'social.any': { found: social.length > 0, correct: null },
    'brand_colors[0]': {
      found: brandHexes.length > 0,
      correct: truthHex ? brandHexes.length > 0 && colorsMatch(brandHexes[0]!, truthHex) : null,
    },
    'brand_colors(any)': {
      found: brandHexes.length > 0,
      correct: truthHex ? brandHexes.some((h) => colorsMatch(h, truthHex)) : null,
    },
    'logos.primary': { found: primary !== null, correct: null },
    // A page element or declared logo, not a site icon standing in.
    'logos.primary(real logo)': {
      found: primary !== null && !['favicon', 'icon', 'apple-touch-icon', 'mask-icon'].includes(primary.source),
      correct: null,
    },
    // The logo file or markup names the company: a weak but checkable sign it is the owner's logo.
    'logos.primary(names company)': {
      found: primary !== null,
      correct:
        primary && name.length >= 3
          ? compact(primary.url.startsWith('data:') ? Buffer.from(primary.url.split(',')[1] ?? '', 'base64').toString() : primary.url).includes(
              name.slice(0, 6),
            )
          : null,
    },
    // The labelled main pages (test/eval/labels/logos.jsonl): a known logo or icon URL is reported.
    'logos.known logo or icon': { found: reportedLogoUrls(out.logos).length > 0, correct: knownLogoFound(logoLabel, out.logos) },
    'logos.favicon_url': { found: out.logos.favicon_url !== null, correct: null },
    'fonts.families': { found: out.fonts.families.length > 0, correct: null },
    'fonts.google_fonts': { found: out.fonts.google_fonts.length > 0, correct: null },
    'images.og_image': { found: out.images.og_image !== '', correct: null },
    'images.assets': { found: out.images.assets.length > 0, correct: null },
    'colors.code_colors.css': { found: out.colors.code_colors.css.length > 0, correct: null },
  };
}

export type FieldSummary = { field: string; n: number; found: number; withTruth: number; correct: number };

export function summarise(all: readonly BrandVerdicts[]): FieldSummary[] {
  const byField = new Map<string, FieldSummary>();
  for (const verdicts of all) {
    for (const [field, v] of Object.entries(verdicts)) {
      const s = byField.get(field) ?? { field, n: 0, found: 0, withTruth: 0, correct: 0 };
      s.n++;
      if (v.found) s.found++;
      if (v.correct !== null) {
        s.withTruth++;
        if (v.correct) s.correct++;
      }
      byField.set(field, s);
    }
  }
  return [...byField.values()];
}

export type HalvesSummary = { field: string } & Record<Half, FieldSummary>;

/** `summarise` per half of the split, field by field (a field missing from a half counts as n = 0). */
export function summariseHalves(rows: readonly { half: Half; verdicts: BrandVerdicts }[]): HalvesSummary[] {
  const per = Object.fromEntries(HALVES.map((h) => [h, summarise(rows.filter((r) => r.half === h).map((r) => r.verdicts))])) as Record<Half, FieldSummary[]>;
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r.verdicts)))];
  const empty = (field: string): FieldSummary => ({ field, n: 0, found: 0, withTruth: 0, correct: 0 });
  return fields.map((field) => ({
    field,
    tuning: per.tuning.find((s) => s.field === field) ?? empty(field),
    validation: per.validation.find((s) => s.field === field) ?? empty(field),
  }));
}

/** What a fixture site's expected.json may state about a correct analysis (test/fixtures/sites/brand-*). */
export type BrandExpectations = {
  primaryLogoContains?: string;
  primaryLogoDecodedContains?: string;
  primaryLogoSource?: string;
  primaryLogoIsSvg?: boolean;
  logosNeverContain?: string[];
  assetsNeverContain?: string[];
  brandColorHex?: string;
  brandColorsNeverFirst?: string[];
  codeColorsCssContains?: string[];
  favicon_url_endsWith?: string;
  apple_touch_icon_endsWith?: string;
  og_image_endsWith?: string;
  google_fonts?: string[];
  typekit?: string[];
  families?: string[];
  familiesContain?: string[];
  social?: Partial<Record<keyof BrandData['social_links'], string | null>>;
};

/** Every way `out` falls short of a fixture's expectations, as readable lines; [] when it meets them all. */
export function checkBrandExpectations(expected: BrandExpectations, out: BrandData): string[] {
  const problems: string[] = [];
  const fail = (what: string, got: unknown): void => void problems.push(`${what}; got ${JSON.stringify(got)}`);
  const primary = out.logos.primary;
  const decoded = primary?.url.startsWith('data:') ? Buffer.from(primary.url.split(',')[1] ?? '', 'base64').toString() : (primary?.url ?? '');
  if (expected.primaryLogoContains && !primary?.url.includes(expected.primaryLogoContains))
    fail(`primary logo url should contain ${expected.primaryLogoContains}`, primary?.url);
  if (expected.primaryLogoDecodedContains && !decoded.includes(expected.primaryLogoDecodedContains))
    fail(`primary logo should contain ${expected.primaryLogoDecodedContains}`, decoded.slice(0, 200));
  if (expected.primaryLogoSource && primary?.source !== expected.primaryLogoSource)
    fail(`primary logo source should be ${expected.primaryLogoSource}`, primary?.source);
  if (expected.primaryLogoIsSvg !== undefined && primary?.isSvg !== expected.primaryLogoIsSvg)
    fail(`primary isSvg should be ${expected.primaryLogoIsSvg}`, primary?.isSvg);
  const allLogos = JSON.stringify(out.logos);
  for (const s of expected.logosNeverContain ?? []) if (allLogos.includes(s)) fail(`logos should never contain ${s}`, out.logos);
  for (const s of expected.assetsNeverContain ?? [])
    if (out.images.assets.some((a) => a.includes(s))) fail(`assets should never contain ${s}`, out.images.assets);
  const first = out.colors.brand_colors[0]?.hex;
  if (expected.brandColorHex && !(first && colorsMatch(first, expected.brandColorHex)))
    fail(
      `first brand color should be ${expected.brandColorHex}`,
      out.colors.brand_colors.map((c) => c.hex),
    );
  for (const h of expected.brandColorsNeverFirst ?? []) if (first === h) fail(`first brand color should not be ${h}`, first);
  for (const h of expected.codeColorsCssContains ?? [])
    if (!out.colors.code_colors.css.includes(h)) fail(`code_colors.css should contain ${h}`, out.colors.code_colors.css);
  const endsWith = (field: string, value: string | null, suffix: string | undefined): void => {
    if (suffix && !value?.endsWith(suffix)) fail(`${field} should end with ${suffix}`, value);
  };
  endsWith('favicon_url', out.logos.favicon_url, expected.favicon_url_endsWith);
  endsWith('apple_touch_icon', out.logos.apple_touch_icon, expected.apple_touch_icon_endsWith);
  endsWith('og_image', out.images.og_image, expected.og_image_endsWith);
  if (expected.google_fonts && JSON.stringify(out.fonts.google_fonts) !== JSON.stringify(expected.google_fonts))
    fail(`google_fonts should be ${expected.google_fonts}`, out.fonts.google_fonts);
  if (expected.typekit && JSON.stringify(out.fonts.typekit) !== JSON.stringify(expected.typekit))
    fail(`typekit should be ${expected.typekit}`, out.fonts.typekit);
  if (expected.families && JSON.stringify(out.fonts.families.slice(0, expected.families.length)) !== JSON.stringify(expected.families))
    fail(`families should start with ${expected.families}`, out.fonts.families);
  for (const f of expected.familiesContain ?? []) if (!out.fonts.families.includes(f)) fail(`families should contain ${f}`, out.fonts.families);
  for (const [k, v] of Object.entries(expected.social ?? {})) {
    const got = out.social_links[k as keyof BrandData['social_links']];
    if (got !== v) fail(`social_links.${k} should be ${v}`, got);
  }
  return problems;
}
