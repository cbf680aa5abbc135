/** The N dominant colors of the page thumbnail, for `screenshotColors=N`. */
import type { ColorEntry } from '@enrich/shared/contracts';
import { clusterColors, toHistogram, type WeightedColor } from './cluster.ts';
import { toColorEntries } from './entries.ts';
import type { RgbaImage } from './pixels.ts';

/**
 * Exactly `count` colors (fewer only when the image has fewer distinct colors), heaviest first,
 * percentages summing to 100. Unlike brand colors nothing is filtered: a screenshot's white
 * background is its dominant color and is reported as such.
 */
export function screenshotPalette(image: RgbaImage, count: number): ColorEntry[] {
  const pixels: WeightedColor[] = [];
  const { data } = image;
  for (let i = 0; i < image.width * image.height; i++) {
    if (data[i * 4 + 3]! === 0) continue;
    pixels.push({ rgb: { r: data[i * 4]!, g: data[i * 4 + 1]!, b: data[i * 4 + 2]! }, weight: 1 });
  }
  return toColorEntries(clusterColors(toHistogram(pixels), count), 'screenshot');
}
