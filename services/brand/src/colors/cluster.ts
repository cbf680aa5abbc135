/**
 * Weighted k-means in OKLab. Input is a color histogram (distinct colors with weights: pixel counts
 * or on-screen areas), so the work is bounded by the number of distinct colors, not by image size.
 * Deterministic: seeding is k-means++ with the arg-max instead of a random draw, so one page
 * always gives one answer.
 */
import { labDistance, rgbToOklab, type Lab } from './oklab.ts';
import type { Rgb } from './parse.ts';

export type WeightedColor = { rgb: Rgb; weight: number };
export type ColorCluster = {
  /** The heaviest member color: a color that really occurs, so a flat brand color keeps its exact hex. */
  rgb: Rgb;
  lab: Lab;
  weight: number;
};

/** Above this many distinct colors, bins of 5 bits per channel bound the clustering work. */
const MAX_DISTINCT = 8192;

/** Counts colors into a histogram; beyond MAX_DISTINCT, merges them into coarse bins represented by their most frequent color. */
export function toHistogram(colors: Iterable<WeightedColor>): WeightedColor[] {
  const exact = new Map<number, WeightedColor>();
  for (const c of colors) {
    const key = (c.rgb.r << 16) | (c.rgb.g << 8) | c.rgb.b;
    const e = exact.get(key);
    if (e) e.weight += c.weight;
    else exact.set(key, { rgb: c.rgb, weight: c.weight });
  }
  if (exact.size <= MAX_DISTINCT) return [...exact.values()];
  const bins = new Map<number, { rep: WeightedColor; repWeight: number; weight: number }>();
  for (const c of exact.values()) {
    const key = ((c.rgb.r >> 3) << 10) | ((c.rgb.g >> 3) << 5) | (c.rgb.b >> 3);
    const bin = bins.get(key);
    if (!bin) bins.set(key, { rep: c, repWeight: c.weight, weight: c.weight });
    else {
      bin.weight += c.weight;
      if (c.weight > bin.repWeight) {
        bin.rep = c;
        bin.repWeight = c.weight;
      }
    }
  }
  return [...bins.values()].map((b) => ({ rgb: b.rep.rgb, weight: b.weight }));
}

type Point = { rgb: Rgb; lab: Lab; weight: number };

/** Clusters a histogram into at most k clusters, heaviest first; fewer when there are fewer distinct colors. */
export function clusterColors(histogram: readonly WeightedColor[], k: number, maxIterations = 20): ColorCluster[] {
  const points: Point[] = histogram.filter((c) => c.weight > 0).map((c) => ({ ...c, lab: rgbToOklab(c.rgb) }));
  if (points.length === 0 || k < 1) return [];
  const centers = seedCenters(points, Math.min(k, points.length));
  const assignment = new Int32Array(points.length);
  for (let iter = 0; iter < maxIterations; iter++) {
    let changed = iter === 0;
    points.forEach((p, i) => {
      const nearest = nearestCenter(p.lab, centers);
      if (nearest !== assignment[i]) changed = true;
      assignment[i] = nearest;
    });
    if (!changed) break;
    const sums = centers.map(() => ({ L: 0, a: 0, b: 0, w: 0 }));
    points.forEach((p, i) => {
      const s = sums[assignment[i]!]!;
      s.L += p.lab.L * p.weight;
      s.a += p.lab.a * p.weight;
      s.b += p.lab.b * p.weight;
      s.w += p.weight;
    });
    sums.forEach((s, c) => {
      if (s.w > 0) centers[c] = { L: s.L / s.w, a: s.a / s.w, b: s.b / s.w };
    });
  }
  const clusters = centers.map(() => ({ rep: null as Point | null, weight: 0 }));
  points.forEach((p, i) => {
    const c = clusters[assignment[i]!]!;
    c.weight += p.weight;
    if (!c.rep || p.weight > c.rep.weight) c.rep = p;
  });
  return clusters
    .filter((c): c is { rep: Point; weight: number } => c.rep !== null && c.weight > 0)
    .map((c) => ({ rgb: c.rep.rgb, lab: c.rep.lab, weight: c.weight }))
    .sort((x, y) => y.weight - x.weight);
}

function nearestCenter(lab: Lab, centers: readonly Lab[]): number {
  let best = 0;
  let bestDistance = Infinity;
  centers.forEach((c, i) => {
    const d = labDistance(lab, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return best;
}

/** k-means++ seeding, taking the point with the largest weight x squared distance each time. */
function seedCenters(points: readonly Point[], k: number): Lab[] {
  let first = points[0]!;
  for (const p of points) if (p.weight > first.weight) first = p;
  const centers: Lab[] = [first.lab];
  const nearest = points.map((p) => labDistance(p.lab, first.lab));
  while (centers.length < k) {
    let bestIndex = -1;
    let bestScore = 0;
    points.forEach((p, i) => {
      const score = p.weight * nearest[i]! ** 2;
      if (score > bestScore) {
        bestScore = score;
        bestIndex = i;
      }
    });
    if (bestIndex < 0) break; // every remaining point coincides with a center
    const c = points[bestIndex]!.lab;
    centers.push(c);
    points.forEach((p, i) => {
      nearest[i] = Math.min(nearest[i]!, labDistance(p.lab, c));
    });
  }
  return centers;
}

/** Merges clusters whose colors are closer than `distance` (OKLab), the heavier one absorbing the lighter. */
export function mergeSimilar(clusters: readonly ColorCluster[], distance: number): ColorCluster[] {
  const merged: ColorCluster[] = [];
  for (const c of [...clusters].sort((x, y) => y.weight - x.weight)) {
    const into = merged.find((m) => labDistance(m.lab, c.lab) < distance);
    if (into) into.weight += c.weight;
    else merged.push({ ...c });
  }
  return merged;
}
