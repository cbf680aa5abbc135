/**
 * The goal ratios measured in alternating blocks. The bench's levels measure our service first and
 * bare Playwright minutes later, 12-16 requests a level over four different pages, so a ratio of
 * their p50s moved with whatever the machine did in between: the same code gave /screenshot ÷ bare
 * at concurrency 4 of 0.88, 1.26 and 1.70 in three runs (2026-11-26/27). Here the sides take turns
 * in short blocks on the same pages, the side that goes first rotating from block to block, and each
 * side's samples are pooled over its blocks (its wall time summed), so a change in the machine's
 * state falls on both sides instead of on whichever phase ran then.
 */
import { closedLoop, summarize, type Sample, type SeriesSummary } from './stats.ts';

/** One side's request: the i-th of its block (the caller maps i to a page). */
export type SideTask = (i: number) => Promise<Omit<Sample, 'ms'>>;

/** The sides in the order block `block` runs them: rotated, so each goes first as often as the others. */
export function blockOrder<T>(sides: readonly T[], block: number): T[] {
  const k = sides.length ? block % sides.length : 0;
  return [...sides.slice(k), ...sides.slice(0, k)];
}

/** One side's blocks as one series: every sample, and the blocks' wall times summed (for throughput). */
export function pooled(runs: ReadonlyArray<{ samples: readonly Sample[]; wallMs: number }>): SeriesSummary {
  return summarize(
    runs.flatMap((r) => r.samples),
    runs.reduce((sum, r) => sum + r.wallMs, 0),
  );
}

/**
 * Runs `blocks` rounds; in each, every side sends `perBlock` requests at `concurrency` (a closed
 * loop), one side after another in `blockOrder`. Returns each side's pooled series.
 */
export async function alternate<K extends string>(
  concurrency: number,
  perBlock: number,
  blocks: number,
  sides: Record<K, SideTask>,
): Promise<Record<K, SeriesSummary>> {
  const names = Object.keys(sides) as K[];
  const runs = new Map<K, Array<{ samples: Sample[]; wallMs: number }>>(names.map((n) => [n, []]));
  for (let b = 0; b < blocks; b++) {
    for (const name of blockOrder(names, b)) runs.get(name)!.push(await closedLoop(concurrency, perBlock, sides[name]));
  }
  return Object.fromEntries(names.map((n) => [n, pooled(runs.get(n)!)])) as Record<K, SeriesSummary>;
}

export interface PairedResult {
  blocks: number;
  /** Concurrency 1: /screenshot, /enrich and bare shots take turns (the first goal, and /enrich ÷ /screenshot). */
  c1: { perBlock: number; screenshot: SeriesSummary; enrich: SeriesSummary; bare: SeriesSummary };
  /** Concurrency 4: /screenshot and bare shots. */
  c4: { perBlock: number; screenshot: SeriesSummary; bare: SeriesSummary };
  /** The highest level, where both are saturated on 2 cores: /enrich and bare shots, for throughput. */
  saturation: { concurrency: number; perBlock: number; enrich: SeriesSummary; bare: SeriesSummary };
}
