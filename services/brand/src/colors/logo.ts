/**
 * The palette of a rasterised logo: what a designer would list as the logo's colors. Three things
 * in a raster are not logo colors and are removed first:
 * - the background: transparent pixels, and for opaque rasters the color that dominates the border;
 * - anti-aliasing: semi-transparent edge pixels; isolated edge pixels that match neither
 *   neighbour; and, since a straight edge makes a whole line of blended pixels, any lighter color
 *   that lies between two heavier ones (or a heavier one and the background);
 * - specks: clusters under MIN_SHARE of what remains.
 */
import type { ColorEntry } from '@enrich/shared/contracts';
import { clusterColors, mergeSimilar, toHistogram, type ColorCluster, type WeightedColor } from './cluster.ts';
import { toColorEntries } from './entries.ts';
import { isNeutral, labDistance, rgbToOklab } from './oklab.ts';
import type { RgbaImage } from './pixels.ts';
import type { Rgb } from './parse.ts';

const MAX_COLORS = 6;
const MIN_SHARE = 0.03;
/** Two logo colors closer than this (OKLab) are one color printed twice (gradients, JPEG noise). */
const SAME_COLOR = 0.06;
/** A neighbour this close counts as the same paint, for the anti-aliasing test. */
const SAME_PAINT = 0.03;

export function logoPalette(image: RgbaImage): ColorEntry[] {
  const background = borderBackground(image);
  const pixels = foregroundPixels(image, background);
  if (pixels.length === 0) return [];
  const clusters = mergeSimilar(clusterColors(toHistogram(pixels), MAX_COLORS + 2), SAME_COLOR);
  const total = clusters.reduce((s, c) => s + c.weight, 0);
  const kept = withoutBlends(clusters, background)
    .filter((c) => c.weight / total >= MIN_SHARE)
    .slice(0, MAX_COLORS);
  return toColorEntries(accentsFirst(kept), 'logo');
}

/** Anti-aliasing blends in sRGB, so a blend sits on the RGB segment between its two paints. */
function isBlendOf(c: Rgb, p: Rgb, q: Rgb): boolean {
  const d = [q.r - p.r, q.g - p.g, q.b - p.b] as const;
  const len2 = d[0] ** 2 + d[1] ** 2 + d[2] ** 2;
  if (len2 < 40 ** 2) return false;
  const t = ((c.r - p.r) * d[0] + (c.g - p.g) * d[1] + (c.b - p.b) * d[2]) / len2;
  if (t < 0.08 || t > 0.92) return false;
  const off = Math.hypot(p.r + t * d[0] - c.r, p.g + t * d[1] - c.g, p.b + t * d[2] - c.b);
  return off < 14;
}

/** Drops clusters that are blends of heavier clusters (or of a heavier cluster and the background). */
export function withoutBlends(clusters: readonly ColorCluster[], background: Rgb | null): ColorCluster[] {
  const sorted = [...clusters].sort((x, y) => y.weight - x.weight);
  return sorted.filter((c, i) => {
    const paints = sorted
      .slice(0, i)
      .filter((p) => p.weight >= c.weight * 2)
      .map((p) => p.rgb);
    if (background) paints.push(background);
    for (let a = 0; a < paints.length; a++) {
      for (let b = a + 1; b < paints.length; b++) if (isBlendOf(c.rgb, paints[a]!, paints[b]!)) return false;
    }
    return true;
  });
}

/**
 * Orders real accents before neutrals (white, black, greys) whatever their share, so a black
 * wordmark with a red symbol reports red first; a truly monochrome logo keeps its neutrals.
 */
export function accentsFirst(clusters: readonly ColorCluster[]): ColorCluster[] {
  const accents = clusters.filter((c) => !isNeutral(c.lab));
  const neutrals = clusters.filter((c) => isNeutral(c.lab));
  return [...accents, ...neutrals];
}

function rgbAt(image: RgbaImage, i: number): Rgb {
  return { r: image.data[i * 4]!, g: image.data[i * 4 + 1]!, b: image.data[i * 4 + 2]! };
}

/** The color covering at least 60% of the opaque border pixels, or null (transparent or busy border). */
export function borderBackground(image: RgbaImage): Rgb | null {
  const { width, height, data } = image;
  const counts = new Map<number, number>();
  let border = 0;
  const visit = (x: number, y: number): void => {
    const i = y * width + x;
    border++;
    if (data[i * 4 + 3]! < 250) return;
    const key = ((data[i * 4]! >> 2) << 12) | ((data[i * 4 + 1]! >> 2) << 6) | (data[i * 4 + 2]! >> 2);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (let x = 0; x < width; x++) {
    visit(x, 0);
    if (height > 1) visit(x, height - 1);
  }
  for (let y = 1; y < height - 1; y++) {
    visit(0, y);
    if (width > 1) visit(width - 1, y);
  }
  let bestKey = -1;
  let best = 0;
  for (const [k, n] of counts) if (n > best) [bestKey, best] = [k, n];
  if (bestKey < 0 || best < border * 0.6) return null;
  return { r: ((bestKey >> 12) & 63) << 2, g: ((bestKey >> 6) & 63) << 2, b: (bestKey & 63) << 2 };
}

function foregroundPixels(image: RgbaImage, background: Rgb | null): WeightedColor[] {
  const { width, height, data } = image;
  const n = width * height;
  const labs = new Array<ReturnType<typeof rgbToOklab> | null>(n);
  const bgLab = background ? rgbToOklab(background) : null;
  for (let i = 0; i < n; i++) {
    // Semi-transparent pixels are the anti-aliased rim of a transparent logo.
    if (data[i * 4 + 3]! < 200) labs[i] = null;
    else {
      const lab = rgbToOklab(rgbAt(image, i));
      labs[i] = bgLab && labDistance(lab, bgLab) < SAME_COLOR ? null : lab;
    }
  }
  const solid: WeightedColor[] = [];
  const all: WeightedColor[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const lab = labs[i];
      if (!lab) continue;
      const px = { rgb: rgbAt(image, i), weight: 1 };
      all.push(px);
      let same = 0;
      const neighbours = [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, y > 0 ? i - width : -1, y < height - 1 ? i + width : -1];
      for (const j of neighbours) {
        const other = j >= 0 ? labs[j] : null;
        if (other && labDistance(lab, other) < SAME_PAINT) same++;
      }
      if (same >= 2) solid.push(px);
    }
  }
  // Hairline logos can be all edge; then every foreground pixel counts.
  return solid.length >= all.length * 0.2 ? solid : all;
}
