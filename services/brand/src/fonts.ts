/**
 * The `fonts` group.
 * - families: the first family of each computed font stack, ordered by the area of visible text
 *   set in it. A stack that starts with a generic or system family (sans-serif, system-ui,
 *   -apple-system, ...) says "the platform font" and names no brand font, so it adds nothing.
 *   Without computed styles (no browser), font-family declarations in the CSS, by frequency.
 * - google_fonts: family names from fonts.googleapis.com stylesheet URLs (css and css2 syntax), in
 *   link tags, loaded resources and CSS @import, plus @font-face rules served from fonts.gstatic.com.
 * - typekit: Adobe Fonts kits; family names when the kit's CSS is among the stylesheets, else kit ids.
 */
import type { Fonts, Snapshot } from '@enrich/shared/contracts';
import { decodeEntities } from '@enrich/shared/page';
import { cssDeclarations, stripCssComments } from './colors/code.ts';

const GENERIC = new Set([
  'serif',
  'sans-serif',
  'monospace',
  'cursive',
  'fantasy',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  'ui-rounded',
  '-apple-system',
  'blinkmacsystemfont',
  'emoji',
  'math',
  'fangsong',
  'inherit',
  'initial',
  'unset',
  'revert',
  'var',
  'apple color emoji',
  'segoe ui emoji',
  'segoe ui symbol',
  'noto color emoji',
]);
const MAX_FAMILIES = 10;

/** The first family of a stack, unquoted; null when it is generic or no family at all. */
export function firstFamily(stack: string): string | null {
  const first = stack
    .split(',')[0]!
    .trim()
    .replace(/^["']|["']$/g, '')
    .trim();
  if (!first || first.length > 80 || GENERIC.has(first.toLowerCase()) || /^var\(|[{}();]/.test(first)) return null;
  return first;
}

function rankFamilies(weighted: Iterable<[string, number]>): string[] {
  const totals = new Map<string, { name: string; weight: number; order: number }>();
  let order = 0;
  for (const [name, weight] of weighted) {
    const key = name.toLowerCase();
    const t = totals.get(key);
    if (t) t.weight += weight;
    else totals.set(key, { name, weight, order: order++ });
  }
  return [...totals.values()]
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .slice(0, MAX_FAMILIES)
    .map((t) => t.name);
}

/** The family list of a `font:` shorthand: what follows the size (`700 16px/1.5 "Inter", sans-serif`). */
function shorthandFamilies(value: string): string | null {
  const m = /(?:^|\s)[\d.]+(?:px|em|rem|pt|%|vh|vw)(?:\s*\/\s*[\d.]+[a-z%]*)?\s+(.+)$/i.exec(value.trim().slice(0, 300));
  return m ? m[1]! : null;
}

export function declaredFamilies(sheets: readonly string[]): string[] {
  const weighted: [string, number][] = [];
  for (const d of sheets.flatMap(cssDeclarations)) {
    const stack = d.property === 'font-family' ? d.value : d.property === 'font' ? shorthandFamilies(d.value) : null;
    const family = stack ? firstFamily(stack.replace(/!important/i, '')) : null;
    if (family) weighted.push([family, 1]);
  }
  return rankFamilies(weighted);
}

/** Family names requested by a Google Fonts stylesheet URL; [] for any other URL. */
export function googleFontsFamilies(url: string): string[] {
  let u: URL;
  try {
    u = new URL(decodeEntities(url));
  } catch {
    return [];
  }
  if (u.hostname !== 'fonts.googleapis.com' || !/^\/css2?$/.test(u.pathname)) return [];
  // css2: one `family=` per family; css (v1): one `family=` with families joined by "|".
  return u.searchParams
    .getAll('family')
    .flatMap((f) => f.split('|'))
    .map((f) => f.split(':')[0]!.trim())
    .filter(Boolean);
}

const FONT_FACE = /@font-face\s*\{([^{}]{0,5000})\}/gi;

function fontFaces(css: string): { family: string; src: string }[] {
  const faces: { family: string; src: string }[] = [];
  for (const m of stripCssComments(css).matchAll(FONT_FACE)) {
    const body = m[1]!;
    const family = /font-family\s*:\s*([^;]{1,200})/i.exec(body)?.[1];
    const name = family
      ? family
          .trim()
          .replace(/^["']|["']$/g, '')
          .trim()
      : '';
    if (name) faces.push({ family: name, src: /src\s*:\s*([^;]{1,3000})/i.exec(body)?.[1] ?? '' });
  }
  return faces;
}

function importedUrls(css: string): string[] {
  return [...css.matchAll(/@import\s+(?:url\(\s*)?["']?([^"')\s;]{1,2000})/gi)].map((m) => m[1]!);
}

function uniqueCaseless(names: Iterable<string>): string[] {
  const seen = new Map<string, string>();
  for (const n of names) if (!seen.has(n.toLowerCase())) seen.set(n.toLowerCase(), n);
  return [...seen.values()];
}

const TYPEKIT_KIT = /^https?:\/\/use\.typekit\.(?:net|com)\/([a-z0-9]{5,12})\.(?:css|js)/i;

function typekitKits(urls: readonly string[]): string[] {
  const kits: string[] = [];
  for (const url of urls) {
    const direct = TYPEKIT_KIT.exec(url)?.[1];
    if (direct) kits.push(direct.toLowerCase());
    else if (/^https?:\/\/p\.typekit\.net\/p\.css/i.test(url)) {
      // p.typekit.net/p.css?s=1&k=<kit>&... is the kit's tracking stylesheet.
      const k = /[?&]k=([a-z0-9]{5,12})/i.exec(url)?.[1];
      if (k) kits.push(k.toLowerCase());
    }
  }
  return uniqueCaseless(kits);
}

export function analyzeFonts(snapshot: Pick<Snapshot, 'styles' | 'stylesheets' | 'links' | 'resources'>): Fonts {
  const sheets = snapshot.stylesheets.map((s) => s.text);
  const computed = rankFamilies(
    snapshot.styles.fonts.flatMap((f) => {
      const family = firstFamily(f.family);
      return family ? [[family, f.area] as [string, number]] : [];
    }),
  );
  const families = computed.length > 0 ? computed : declaredFamilies(sheets);

  const urls = [
    ...snapshot.links.map((l) => l.href),
    ...snapshot.resources.map((r) => r.url),
    ...snapshot.stylesheets.flatMap((s) => (s.url ? [s.url] : [])),
    ...sheets.flatMap(importedUrls),
  ];
  const google = urls.flatMap(googleFontsFamilies);
  for (const sheet of sheets) {
    for (const face of fontFaces(sheet)) if (/fonts\.gstatic\.com/i.test(face.src)) google.push(face.family);
  }

  const kits = typekitKits(urls);
  const kitFamilies = snapshot.stylesheets
    .filter((s) => s.url && (TYPEKIT_KIT.test(s.url) || /^https?:\/\/p\.typekit\.net\//i.test(s.url)))
    .flatMap((s) => fontFaces(s.text).map((f) => f.family));
  const kitCssInline = sheets
    .flatMap(fontFaces)
    .filter((f) => /use\.typekit\.net\/af\//i.test(f.src))
    .map((f) => f.family);

  return {
    families,
    google_fonts: uniqueCaseless(google),
    typekit: uniqueCaseless([...kitFamilies, ...kitCssInline]).length > 0 ? uniqueCaseless([...kitFamilies, ...kitCssInline]) : kits,
  };
}
