/**
 * Parsing and formatting of single color values. tinycolor2 does the CSS grammar (names, hex of
 * 3/4/6/8 digits, rgb()/hsl() with or without alpha); this module adds what a brand analysis needs
 * on top: keywords that are not colors, fully transparent values, and the seed's output formats.
 */
import tinycolor from 'tinycolor2';

export type Rgb = { r: number; g: number; b: number };
export type Rgba = Rgb & { a: number };

/** Keywords that are valid CSS color values but name no color of their own. */
const NON_COLORS = new Set(['transparent', 'inherit', 'initial', 'unset', 'revert', 'currentcolor', 'none', 'auto']);

/** A CSS color value, or null when it is not one (or is invisible: alpha 0). */
export function parseCssColor(value: string): Rgba | null {
  const v = value.trim().toLowerCase();
  if (v.length === 0 || v.length > 100 || NON_COLORS.has(v)) return null;
  const tc = tinycolor(modernToLegacySyntax(v));
  if (!tc.isValid()) return null;
  const { r, g, b, a } = tc.toRgb();
  if (a === 0) return null;
  return { r: Math.round(r), g: Math.round(g), b: Math.round(b), a };
}

/**
 * tinycolor2 knows only the comma syntax; browsers and modern CSS also write `rgb(91 61 245 / 50%)`
 * and `hsl(250deg 90% 60%)`. Rewrite those to the comma form.
 */
function modernToLegacySyntax(v: string): string {
  const m = /^(rgba?|hsla?)\(([^)]*)\)$/.exec(v);
  if (!m || m[2]!.includes(',')) return v;
  const [channels, alpha] = m[2]!.split('/');
  const parts = channels!
    .trim()
    .split(/\s+/)
    .map((p) => p.replace(/deg$/, ''));
  if (parts.length !== 3) return v;
  const fn = m[1]!.startsWith('rgb') ? 'rgb' : 'hsl';
  const a = alpha?.trim();
  return a ? `${fn}a(${parts.join(',')},${a.endsWith('%') ? Number(a.slice(0, -1)) / 100 : a})` : `${fn}(${parts.join(',')})`;
}

export function toHex({ r, g, b }: Rgb): string {
  return (
    '#' +
    [r, g, b]
      .map((c) => c.toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase()
  );
}

export function toRgbString({ r, g, b }: Rgb): string {
  return `rgb(${r},${g},${b})`;
}
