/**
 * The tuning/validation split of the development corpus, by site: every page of a site falls in the
 * same half, so nothing learnt from one page of a site can lift the figures of another page of it.
 *
 * A site is the record's domain without `www.`. Its half is decided by a hash (sha256 of
 * `enrich-eval-split-v1:<site>`, first byte even = tuning), so the split is deterministic and owes
 * nothing to the pages' content. The resulting list is committed in `split.json` (regenerate with
 * `node test/eval/split.ts --write`; `split.test.ts` checks the file against this function).
 *
 * Rule of the house: words, weights, rules and thresholds are chosen looking at the tuning half only.
 * Figures reported anywhere are the validation half's, with the tuning half and the gap beside them.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type Half = 'tuning' | 'validation';

export interface SplitFile {
  version: string;
  rule: string;
  tuning: string[];
  validation: string[];
}

export const SPLIT_VERSION = 'enrich-eval-split-v1';
const SPLIT_PATH = join(import.meta.dirname, 'split.json');

/** The site of a corpus record: its domain (or its URL's host) without a leading `www.`. */
export function siteOf(r: { domain?: string; url?: string }): string {
  let host = (r.domain ?? '').trim().toLowerCase();
  if (!host && r.url) {
    try {
      host = new URL(r.url).hostname.toLowerCase();
    } catch {
      host = '';
    }
  }
  return host.replace(/^www\./, '');
}

/** The half a site belongs to, from the hash alone. */
export function halfOfSite(site: string): Half {
  const first = createHash('sha256').update(`${SPLIT_VERSION}:${site}`).digest()[0] ?? 0;
  return first % 2 === 0 ? 'tuning' : 'validation';
}

export function buildSplit(sites: Iterable<string>): SplitFile {
  const unique = [...new Set(sites)].sort();
  return {
    version: SPLIT_VERSION,
    rule: `sha256("${SPLIT_VERSION}:" + site)[0] even = tuning, odd = validation; site = domain without www.`,
    tuning: unique.filter((s) => halfOfSite(s) === 'tuning'),
    validation: unique.filter((s) => halfOfSite(s) === 'validation'),
  };
}

let committed: Map<string, Half> | undefined;

/** The committed split (split.json). A site missing from it is refused: regenerate the file. */
export function halfOf(r: { domain?: string; url?: string }): Half {
  if (!committed) {
    const file = JSON.parse(readFileSync(SPLIT_PATH, 'utf8')) as SplitFile;
    committed = new Map([...file.tuning.map((s) => [s, 'tuning'] as const), ...file.validation.map((s) => [s, 'validation'] as const)]);
  }
  const site = siteOf(r);
  const half = committed.get(site);
  if (!half) throw new Error(`site "${site}" is not in test/eval/split.json: run node test/eval/split.ts --write`);
  return half;
}

export const HALVES: readonly Half[] = ['tuning', 'validation'];

/** One figure per half and the gap (tuning minus validation, in points), as the evals print it. */
export function formatHalves(label: string, figure: Record<Half, { right: number; total: number }>): string {
  const pct = (x: { right: number; total: number }): string => (x.total ? `${((100 * x.right) / x.total).toFixed(1)}%` : '  -  ');
  const gap =
    figure.tuning.total && figure.validation.total
      ? (100 * figure.tuning.right) / figure.tuning.total - (100 * figure.validation.right) / figure.validation.total
      : Number.NaN;
  return `${label.padEnd(40)} validation ${pct(figure.validation).padStart(6)} (${figure.validation.right}/${figure.validation.total})   tuning ${pct(figure.tuning).padStart(6)} (${figure.tuning.right}/${figure.tuning.total})   gap ${Number.isNaN(gap) ? '-' : `${gap >= 0 ? '+' : ''}${gap.toFixed(1)}`}`;
}

if (process.argv[1] === import.meta.filename) {
  const corpus = join(import.meta.dirname, '../../../shared/corpus/dev/ground_truth.jsonl');
  const sites = readFileSync(corpus, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => siteOf(JSON.parse(l) as { domain?: string; url?: string }));
  const split = buildSplit(sites);
  if (process.argv.includes('--write')) writeFileSync(SPLIT_PATH, `${JSON.stringify(split, null, 2)}\n`);
  console.log(`${split.tuning.length} tuning sites, ${split.validation.length} validation sites`);
}
