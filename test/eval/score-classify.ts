/**
 * Scoring of classifications against the corpus's site-level IAB labels and the article topic labels
 * (test/eval/labels/article-topics.jsonl): tier-1 and tier-2 (exact id) accuracy and a tier-1
 * confusion table. Pure but for loadArticleTopics, so the runner and tests share it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Classification } from '@enrich/shared/contracts';

export interface ClassifyTruth {
  /** Hand-judged label: a tier-2 id, or a tier-1 id when no child fits. */
  iab: string;
  iab_tier1: string;
  /** Other ids as right as `iab` for a page about two things (the article topic labels); tier-1 ids of these count too. */
  also?: readonly string[];
}

/** The tier-1 id of an IAB 1.0 id ("IAB19-18" -> "IAB19"). */
export function tier1Of(id: string): string {
  return id.split('-')[0]!;
}

export interface ClassifyOutcome {
  tier1Hit: boolean;
  /** Exact match of the id: a tier-1 label is only hit by a tier-1 answer. */
  tier2Hit: boolean;
}

export function scoreClassification(truth: ClassifyTruth, got: Pick<Classification, 'iab_id' | 'iab_parent_id'>): ClassifyOutcome {
  const also = truth.also ?? [];
  return {
    tier1Hit: got.iab_parent_id === truth.iab_tier1 || also.some((id) => tier1Of(id) === got.iab_parent_id),
    tier2Hit: got.iab_id === truth.iab || also.includes(got.iab_id),
  };
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

/**
 * The topic labels of the readability articles (test/eval/labels/article-topics.jsonl, see its README):
 * the corpus labels none of them, and an article is about its own topic, not its publisher's trade.
 */
export function loadArticleTopics(path = join(import.meta.dirname, 'labels/article-topics.jsonl')): Map<string, ClassifyTruth> {
  const out = new Map<string, ClassifyTruth>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const l = JSON.parse(line) as { page_id: string; iab: string; also?: string[] };
    out.set(l.page_id, { iab: l.iab, iab_tier1: tier1Of(l.iab), also: l.also ?? [] });
  }
  return out;
}
