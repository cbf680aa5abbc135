/**
 * Classifies every labelled page of the dev corpus from its saved HTML (snapshotFromHtml, no browser,
 * no network) and prints tier-1 / tier-2 accuracy against the site-level labels and the confusions.
 *   node test/eval/offline-classify.ts [--keywords-only] [--errors] [--json out.json]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createClassifier } from '../../services/classifier/src/classifier.ts';
import { createEmbeddedClassifier } from '../../services/classifier/src/providers/embedded.ts';
import { loadSentenceEncoder } from '../../services/classifier/src/embed.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { summarizeClassifications, type ClassifyTruth } from './score-classify.ts';

const { values: args } = parseArgs({ options: { 'keywords-only': { type: 'boolean' }, errors: { type: 'boolean' }, json: { type: 'string' } } });
const CORPUS = new URL('../../../shared/corpus/dev/', import.meta.url).pathname;
const GT = join(CORPUS, 'ground_truth.jsonl');
if (!existsSync(GT)) {
  console.log(`skipped: corpus not found at ${CORPUS}`);
  process.exit(0);
}

interface Record_ { page_id: string; html: string; url: string; domain: string; gt: { iab?: string | null; iab_tier1?: string | null; iab_name?: string } }
const records = readFileSync(GT, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record_).filter((r) => r.gt.iab && r.gt.iab_tier1);

const embedder = args['keywords-only'] ? null : await loadSentenceEncoder();
const classifier = createClassifier({ embedded: createEmbeddedClassifier(embedder) });
const rows: { id: string; domain: string; truth: ClassifyTruth; got: Awaited<ReturnType<typeof classifier.classify>> }[] = [];
for (const r of records) {
  const html = readFileSync(join(CORPUS, r.html), 'utf8');
  const got = await classifier.classify(snapshotFromHtml(html, r.url), r.url);
  rows.push({ id: r.page_id, domain: r.domain, truth: { iab: r.gt.iab!, iab_tier1: r.gt.iab_tier1! }, got });
}

const report = summarizeClassifications(rows);
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
console.log(`classifier on ${report.pages} labelled pages (${new Set(rows.map((r) => r.domain)).size} sites), ${embedder ? 'keywords + embeddings' : 'keywords only'}`);
console.log(`tier-1 accuracy ${pct(report.tier1Accuracy)}   tier-2 (exact id) accuracy ${pct(report.tier2Accuracy)}`);
console.log(`uncategorized (low evidence): ${rows.filter((r) => r.got.iab_id === 'IAB24').length}`);
console.log('most frequent tier-1 confusions (expected -> predicted: pages):');
for (const c of report.topConfusions.slice(0, 12)) console.log(`  ${c.expected} -> ${c.predicted}: ${c.count}`);
if (args.errors) {
  for (const r of rows) {
    if (r.got.iab_parent_id !== r.truth.iab_tier1 || r.got.iab_id !== r.truth.iab) {
      console.log(`${r.got.iab_parent_id === r.truth.iab_tier1 ? 't2' : 'T1'} ${r.id.padEnd(8)} ${r.domain.padEnd(30)} want ${r.truth.iab.padEnd(8)} got ${r.got.iab_id.padEnd(8)} | ${r.got.description.slice(0, 90)}`);
    }
  }
}
if (args.json) writeFileSync(args.json, JSON.stringify({ ...report, rows: rows.map((r) => ({ id: r.id, want: r.truth.iab, got: r.got.iab_id })) }, null, 2));
