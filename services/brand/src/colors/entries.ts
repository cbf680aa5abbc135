/** Turns weighted clusters into the seed's color entries, with integer percentages that sum to 100. */
import type { ColorEntry } from '@enrich/shared/contracts';
import { nearestColorName } from './names.ts';
import { toHex, toRgbString } from './parse.ts';
import type { ColorCluster } from './cluster.ts';

/**
 * Largest-remainder rounding, so the percentages sum to exactly 100; every listed color gets at
 * least 1 (a listed color at 0% reads as a bug), taken from the largest shares.
 */
export function integerPercentages(weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (weights.length === 0 || total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (w / total) * 100);
  const result = exact.map(Math.floor);
  let missing = 100 - result.reduce((s, p) => s + p, 0);
  const byRemainder = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((x, y) => y.r - x.r || x.i - y.i);
  for (let j = 0; missing > 0; j = (j + 1) % byRemainder.length, missing--) result[byRemainder[j]!.i]! += 1;
  if (weights.length <= 100) {
    for (let i = 0; i < result.length; i++) {
      if (result[i] !== 0) continue;
      const largest = result.indexOf(Math.max(...result));
      result[largest]! -= 1;
      result[i] = 1;
    }
  }
  return result;
}

export function toColorEntries(clusters: readonly ColorCluster[], source: ColorEntry['source']): ColorEntry[] {
  const percentages = integerPercentages(clusters.map((c) => c.weight));
  return clusters.map((c, i) => ({
    color: toRgbString(c.rgb),
    hex: toHex(c.rgb),
    name: nearestColorName(c.rgb),
    percentage: percentages[i]!,
    source,
  }));
}
