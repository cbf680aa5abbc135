/**
 * Offline brand evaluation over the dev corpus: builds snapshots without a browser
 * (snapshotFromHtml: no computed styles, no rasters, no boxes), runs analyzeBrand, and prints per
 * field how often the output is found and, where the corpus has truth, how often it is correct.
 *
 *   .tools/node/bin/node test/eval/offline-brand.ts [--verbose]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeBrand } from '../../services/brand/src/analyze.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { scoreBrand, summarise, type BrandTruth, type BrandVerdicts } from './score-brand.ts';

const CORPUS = join(import.meta.dirname, '../../../shared/corpus/dev');
const verbose = process.argv.includes('--verbose');

if (!existsSync(join(CORPUS, 'ground_truth.jsonl'))) {
  console.log(`skipped: no corpus at ${CORPUS}`);
  process.exit(0);
}

const records = readFileSync(join(CORPUS, 'ground_truth.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as BrandTruth & { html: string });

const verdicts: BrandVerdicts[] = [];
const bySource = new Map<string, BrandVerdicts[]>();
let failures = 0;
const started = performance.now();
for (const r of records) {
  try {
    const html = readFileSync(join(CORPUS, r.html), 'utf8');
    const snapshot = snapshotFromHtml(html, r.url);
    const out = await analyzeBrand({
      requestId: '00000000-0000-4000-8000-000000000000',
      snapshot,
      screenshotUrl: '',
      options: { screenshotColors: null, css: true, html: false, javascript: false },
    });
    const v = scoreBrand(r, out);
    verdicts.push(v);
    bySource.set(r.source, [...(bySource.get(r.source) ?? []), v]);
    if (verbose && (r.gt.twitter || r.gt.brand_hex)) {
      console.log(r.page_id, '| twitter', out.social_links.twitter, 'truth', r.gt.twitter ?? '-', '| colors', out.colors.brand_colors.map((c) => c.hex).join(' '), 'truth', r.gt.brand_hex ?? '-', '| logo', out.logos.primary?.source, out.logos.primary?.url.slice(0, 80));
    }
  } catch (err) {
    failures++;
    console.error(r.page_id, 'failed:', (err as Error).message);
  }
}

const pct = (a: number, b: number): string => (b === 0 ? '   -  ' : `${((100 * a) / b).toFixed(1).padStart(5)}%`);
function table(title: string, vs: readonly BrandVerdicts[]): void {
  console.log(`\n${title} (${vs.length} pages)`);
  console.log('field'.padEnd(30), 'found'.padStart(14), 'correct (where truth)'.padStart(26));
  for (const s of summarise(vs)) {
    const correct = s.withTruth ? `${pct(s.correct, s.withTruth)} (${s.correct}/${s.withTruth})` : '-';
    console.log(s.field.padEnd(30), `${pct(s.found, s.n)} (${s.found})`.padStart(14), correct.padStart(26));
  }
}

table('all pages', verdicts);
for (const [source, vs] of bySource) table(source, vs);
console.log(`\n${records.length} pages, ${failures} failures, ${((performance.now() - started) / 1000).toFixed(1)} s`);
