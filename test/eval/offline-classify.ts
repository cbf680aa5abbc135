/**
 * Classifies every labelled page of the dev corpus from its saved HTML (snapshotFromHtml, no browser,
 * no network) and prints tier-1 / tier-2 accuracy against the site-level labels for the validation
 * half, the tuning half and the gap (split by site, test/eval/split.ts).
 * Confusions, `--errors` and `--json` rows are the TUNING half's only: validation errors are never
 * shown, so they cannot inform words, rules or weights.
 *   node test/eval/offline-classify.ts [--keywords-only] [--errors] [--json out.json]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClassifier } from '../../services/classifier/src/classifier.ts';
import { createEmbeddedClassifier } from '../../services/classifier/src/providers/embedded.ts';
import { loadSentenceEncoder } from '../../services/classifier/src/embed.ts';
import { gatherPageEvidence } from '../../services/classifier/src/page-evidence.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { countByHalf, loadArticleTopics, scoreClassification, summarizeClassifications, type ClassifyTruth } from './score-classify.ts';
import { formatHalves, halfOf, HALVES, type Half } from './split.ts';

const { values: args } = parseArgs({ options: { 'keywords-only': { type: 'boolean' }, errors: { type: 'boolean' }, json: { type: 'string' } } });
const CORPUS = new URL('../../../shared/corpus/dev/', import.meta.url).pathname;
const GT = join(CORPUS, 'ground_truth.jsonl');
if (!existsSync(GT)) {
  console.log(`skipped: corpus not found at ${CORPUS}`);
  process.exit(0);
}

interface Record_ {
  page_id: string;
  html: string;
  url: string;
  domain: string;
  gt: { iab?: string | null; iab_tier1?: string | null; iab_name?: string };
}
const articleTopics = loadArticleTopics();
const all = readFileSync(GT, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Record_);
const records = all.filter((r) => r.gt.iab && r.gt.iab_tier1);
const articles = all.filter((r) => articleTopics.has(r.page_id));

const embedder = args['keywords-only'] ? null : await loadSentenceEncoder();
const embedded = createEmbeddedClassifier(embedder);
const classifier = createClassifier({ embedded });
/**
 * The anatomy of a tier-1 miss, for counts: how the choice was made (basis, what decided it, article
 * reading) and where the wanted family ranked. Categories only, so the validation half can be counted.
 */
const missAnatomy: Record<Half, Map<string, number>> = { tuning: new Map(), validation: new Map() };
async function countMiss(html: string, url: string, half: Half, want: string, kind: string): Promise<void> {
  const choice = await embedded.classify(gatherPageEvidence(snapshotFromHtml(html, url), url));
  const wantTier1 = want.split('-')[0]!;
  const rank = choice.ranking.findIndex((x) => x.id === wantTier1);
  const where = rank < 0 ? 'not ranked' : rank === 1 ? 'runner-up' : rank < 5 ? `ranked ${rank + 1}` : 'ranked 6+';
  const s = choice.strength;
  const key = `${kind}: basis ${choice.basis}, decided by ${s.decidedBy}, ${s.article ? 'read as an article' : 'not an article'}, wanted family ${where}${rank === 1 ? `, margin ${s.margin < 1 ? '< 1' : s.margin < 3 ? '1-3' : '3+'}` : ''}`;
  missAnatomy[half].set(key, (missAnatomy[half].get(key) ?? 0) + 1);
}
type Row = { id: string; domain: string; half: Half; truth: ClassifyTruth; got: Awaited<ReturnType<typeof classifier.classify>> };
/** Each page classified from its saved HTML, beside its truth. */
async function classifyEach(pages: readonly Record_[], truthOf: (r: Record_) => ClassifyTruth): Promise<Row[]> {
  const out: Row[] = [];
  for (const r of pages) {
    const html = readFileSync(join(CORPUS, r.html), 'utf8');
    const got = await classifier.classify(snapshotFromHtml(html, r.url), r.url);
    const truth = truthOf(r);
    if (!scoreClassification(truth, got).tier1Hit) await countMiss(html, r.url, halfOf(r), truth.iab, articleTopics.has(r.page_id) ? 'article' : 'site');
    out.push({ id: r.page_id, domain: r.domain, half: halfOf(r), truth, got });
  }
  return out;
}
const rows = await classifyEach(records, (r) => ({ iab: r.gt.iab!, iab_tier1: r.gt.iab_tier1! }));
const articleRows = await classifyEach(articles, (r) => articleTopics.get(r.page_id)!);

const tuningRows = rows.filter((r) => r.half === 'tuning');
const report = summarizeClassifications(tuningRows);
const byHalf = countByHalf(HALVES, rows);
console.log(
  `classifier on ${rows.length} labelled pages (${new Set(rows.map((r) => r.domain)).size} sites), ${embedder ? 'keywords + embeddings' : 'keywords only'}`,
);
console.log(formatHalves('tier-1 accuracy', { tuning: byHalf.tuning.tier1, validation: byHalf.validation.tier1 }));
console.log(formatHalves('tier-2 (exact id) accuracy', { tuning: byHalf.tuning.tier2, validation: byHalf.validation.tier2 }));
const byHalfArticles = countByHalf(HALVES, articleRows);
console.log(`articles (${articleRows.length} readability pages, topic labels of test/eval/labels/article-topics.jsonl):`);
console.log(formatHalves('  article topic, tier-1', { tuning: byHalfArticles.tuning.tier1, validation: byHalfArticles.validation.tier1 }));
console.log(formatHalves('  article topic, tier-2 (exact id)', { tuning: byHalfArticles.tuning.tier2, validation: byHalfArticles.validation.tier2 }));
const uncategorized = (h: Half): number => rows.filter((r) => r.half === h && r.got.iab_id === 'IAB24').length;
console.log(`uncategorized (IAB24): validation ${uncategorized('validation')}, tuning ${uncategorized('tuning')}`);
for (const half of ['validation', 'tuning'] as const) {
  console.log(`tier-1 misses, ${half} half, by how the choice was made (counts):`);
  for (const [k, n] of [...missAnatomy[half]].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${k}`);
}
console.log('most frequent tier-1 confusions, tuning half (expected -> predicted: pages):');
for (const c of report.topConfusions.slice(0, 12)) console.log(`  ${c.expected} -> ${c.predicted}: ${c.count}`);
if (args.errors) {
  console.log('errors, tuning half only:');
  for (const r of [...tuningRows, ...articleRows.filter((a) => a.half === 'tuning')]) {
    const o = scoreClassification(r.truth, r.got);
    if (!o.tier1Hit || !o.tier2Hit) {
      console.log(
        `${o.tier1Hit ? 't2' : 'T1'} ${r.id.padEnd(8)} ${r.domain.padEnd(30)} want ${r.truth.iab.padEnd(8)} got ${r.got.iab_id.padEnd(8)} | ${r.got.description.slice(0, 90)}`,
      );
    }
  }
}
if (args.json)
  writeFileSync(
    args.json,
    JSON.stringify({ halves: byHalf, tuning: { ...report, rows: tuningRows.map((r) => ({ id: r.id, want: r.truth.iab, got: r.got.iab_id })) } }, null, 2),
  );
