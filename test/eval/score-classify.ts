/**
 * Pure scoring of classifications against the corpus's site-level IAB labels: tier-1 and tier-2
 * (exact id) accuracy and a tier-1 confusion table. No I/O, so the runner and tests share it.
 */
import type { Classification } from '@enrich/shared/contracts';

export interface ClassifyTruth {
  /** Hand-judged site-level label: a tier-2 id, or a tier-1 id when no child fits. */
  iab: string;
  iab_tier1: string;
}

export interface ClassifyOutcome {
  tier1Hit: boolean;
  /** Exact match of the id: a tier-1 label is only hit by a tier-1 answer. */
  tier2Hit: boolean;
}

export function scoreClassification(truth: ClassifyTruth, got: Pick<Classification, 'iab_id' | 'iab_parent_id'>): ClassifyOutcome {
  return { tier1Hit: got.iab_parent_id === truth.iab_tier1, tier2Hit: got.iab_id === truth.iab };
}

export interface ClassifyReport {
  pages: number;
  tier1Accuracy: number;
  tier2Accuracy: number;
  /** expected tier-1 -> predicted tier-1 -> count, errors only. */
  confusion: Record<string, Record<string, number>>;
  /** The most frequent (expected, predicted) tier-1 pairs among errors, most frequent first. */
  topConfusions: { expected: string; predicted: string; count: number }[];
}

export function summarizeClassifications(rows: readonly { truth: ClassifyTruth; got: Pick<Classification, 'iab_id' | 'iab_parent_id'> }[]): ClassifyReport {
  let t1 = 0;
  let t2 = 0;
  const confusion: Record<string, Record<string, number>> = {};
  for (const { truth, got } of rows) {
    const o = scoreClassification(truth, got);
    if (o.tier1Hit) t1++;
    else {
      const row = (confusion[truth.iab_tier1] ??= {});
      row[got.iab_parent_id] = (row[got.iab_parent_id] ?? 0) + 1;
    }
    if (o.tier2Hit) t2++;
  }
  const topConfusions = Object.entries(confusion)
    .flatMap(([expected, row]) => Object.entries(row).map(([predicted, count]) => ({ expected, predicted, count })))
    .sort((a, b) => b.count - a.count || a.expected.localeCompare(b.expected));
  const n = rows.length;
  return { pages: n, tier1Accuracy: n ? t1 / n : 0, tier2Accuracy: n ? t2 / n : 0, confusion, topConfusions };
}

export interface HalfCounts {
  tier1: { right: number; total: number };
  tier2: { right: number; total: number };
}

/**
 * Right/total counts of tier-1 and tier-2 per half of the corpus split (test/eval/split.ts), in the
 * shape `formatHalves` prints. Every half is present, with zero totals when it has no rows.
 */
export function countByHalf<H extends string>(
  halves: readonly H[],
  rows: readonly { half: H; truth: ClassifyTruth; got: Pick<Classification, 'iab_id' | 'iab_parent_id'> }[],
): Record<H, HalfCounts> {
  const out = {} as Record<H, HalfCounts>;
  for (const h of halves) out[h] = { tier1: { right: 0, total: 0 }, tier2: { right: 0, total: 0 } };
  for (const { half, truth, got } of rows) {
    const o = scoreClassification(truth, got);
    const c = out[half];
    c.tier1.total++;
    c.tier2.total++;
    if (o.tier1Hit) c.tier1.right++;
    if (o.tier2Hit) c.tier2.right++;
  }
  return out;
}
