/**
 * Brand colors from the page itself, used when no logo raster gives a palette: the colors of
 * what a brand paints on purpose (buttons, links, headings, the header bar, meta theme-color,
 * custom properties named like --brand or --primary), not of body text and page background.
 *
 * Weights: role weight x sqrt(area). The square root keeps a full-width header background
 * from drowning every button; the role weights say which elements carry brand color on most sites.
 * Only chromatic colors are reported while any exist; a page painted only in neutrals
 * (a monochrome brand) reports its two heaviest neutrals.
 */
import type { ColorEntry, ColorSample, StyleRole } from '@enrich/shared/contracts';
import { mergeSimilar, type ColorCluster } from './cluster.ts';
import { cssColorCounts, resolveColorValue } from './code.ts';
import { toColorEntries } from './entries.ts';
import { isNeutral, rgbToOklab } from './oklab.ts';
import { parseCssColor, type Rgb } from './parse.ts';

export type PageColorFacts = {
  samples: readonly ColorSample[];
  /** `<meta name="theme-color">` content, if any. */
  themeColor: string | null;
  rootVariables: Record<string, string>;
  /** Stylesheet texts, read only when there are no computed samples (snapshots built without a browser). */
  stylesheets: readonly string[];
};

const MAX_ACCENTS = 4;
const SAME_COLOR = 0.05;
/** An accent under this share of the accent weight is noise (one hover color, one badge). */
const MIN_SHARE = 0.06;

type Property = ColorSample['property'];
const ROLE_WEIGHT: Record<StyleRole, Partial<Record<Property, number>> & { default: number }> = {
  button: { 'background-color': 8, color: 2, 'border-color': 3, default: 2 },
  link: { color: 4, default: 1 },
  heading: { color: 3, default: 1 },
  header: { 'background-color': 3, color: 1.5, fill: 3, default: 1 },
  nav: { 'background-color': 2, color: 1.5, default: 1 },
  footer: { 'background-color': 1, default: 0.5 },
  body: { default: 0.3 },
  other: { fill: 1, default: 0.4 },
};

const BRAND_VARIABLE = /brand|primary|accent|theme|highlight|cta|main-color/i;

export function pageAccentColors(facts: PageColorFacts): ColorEntry[] {
  const weighted: { rgb: Rgb; weight: number }[] = [];
  for (const s of facts.samples) {
    const c = parseCssColor(s.value);
    if (!c || c.a < 0.5) continue;
    const role = ROLE_WEIGHT[s.role];
    weighted.push({ rgb: c, weight: (role[s.property] ?? role.default) * Math.sqrt(s.area) });
  }
  if (weighted.length === 0) weighted.push(...declaredColors(facts));
  const total = weighted.reduce((sum, w) => sum + w.weight, 0) || 1;

  // Deliberate declarations of brand color get a fixed share of the evidence each.
  const theme = facts.themeColor ? resolveColorValue(facts.themeColor, facts.rootVariables) : null;
  if (theme) weighted.push({ rgb: theme, weight: total * 0.3 });
  for (const [name, value] of Object.entries(facts.rootVariables)) {
    if (!BRAND_VARIABLE.test(name)) continue;
    const c = resolveColorValue(value, facts.rootVariables);
    if (c) weighted.push({ rgb: c, weight: total * 0.15 });
  }
  return toColorEntries(chooseAccents(weighted), 'screenshot');
}

/** Colors as declared in CSS, weighted by frequency, with brand-named custom properties boosted. */
function declaredColors(facts: PageColorFacts): { rgb: Rgb; weight: number }[] {
  const out: { rgb: Rgb; weight: number }[] = [];
  for (const [hex, n] of cssColorCounts(facts.stylesheets, facts.rootVariables)) out.push({ rgb: hexToRgb(hex), weight: n });
  const total = out.reduce((s, w) => s + w.weight, 0) || 1;
  for (const sheet of facts.stylesheets) {
    for (const m of sheet.matchAll(/(--[\w-]{1,60})\s{0,5}:\s{0,5}([^;}]{1,100})/g)) {
      if (!BRAND_VARIABLE.test(m[1]!)) continue;
      const c = resolveColorValue(m[2]!, facts.rootVariables);
      if (c) out.push({ rgb: c, weight: total * 0.15 });
    }
  }
  return out;
}

function hexToRgb(hex: string): Rgb {
  const n = parseInt(hex.slice(1), 16);
  return { r: n >> 16, g: (n >> 8) & 255, b: n & 255 };
}

export function chooseAccents(weighted: readonly { rgb: Rgb; weight: number }[]): ColorCluster[] {
  const exact = new Map<string, ColorCluster>();
  for (const w of weighted) {
    const key = `${w.rgb.r},${w.rgb.g},${w.rgb.b}`;
    const e = exact.get(key);
    if (e) e.weight += w.weight;
    else exact.set(key, { rgb: w.rgb, lab: rgbToOklab(w.rgb), weight: w.weight });
  }
  const clusters = mergeSimilar([...exact.values()], SAME_COLOR);
  const accents = clusters.filter((c) => !isNeutral(c.lab));
  const accentWeight = accents.reduce((s, c) => s + c.weight, 0);
  const totalWeight = clusters.reduce((s, c) => s + c.weight, 0);
  // A stray red error message does not make a black-and-white brand colorful.
  if (accents.length > 0 && accentWeight >= totalWeight * 0.03) return accents.filter((c) => c.weight >= accentWeight * MIN_SHARE).slice(0, MAX_ACCENTS);
  return clusters.slice(0, 2);
}
