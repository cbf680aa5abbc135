/**
 * Offline brand evaluation over the dev corpus: builds snapshots without a browser
 * (snapshotFromHtml: no computed styles, no rasters, no boxes), runs analyzeBrand, and prints per
 * field, for the validation and the tuning half of the split (test/eval/split.ts) and the gap, how
 * often the output is found and, where the corpus or a label file has truth, how often it is correct.
 *
 *   .tools/node/bin/node test/eval/offline-brand.ts [--verbose] [--json <file>]
 *
 * `--verbose` prints page details of the tuning half only: validation failures are not to be read.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeBrand } from '../../services/brand/src/analyze.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { loadLogoLabels, scoreBrand, summariseHalves, type BrandTruth, type BrandVerdicts } from './score-brand.ts';
import { formatHalves, halfOf, type Half } from './split.ts';

const CORPUS = join(import.meta.dirname, '../../../shared/corpus/dev');
const verbose = process.argv.includes('--verbose');
const jsonOut = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : undefined;

if (!existsSync(join(CORPUS, 'ground_truth.jsonl'))) {
  console.log(`skipped: no corpus at ${CORPUS}`);
  process.exit(0);
}

const records = readFileSync(join(CORPUS, 'ground_truth.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as BrandTruth & { html: string });
const logoLabels = loadLogoLabels();

const rows: { half: Half; verdicts: BrandVerdicts }[] = [];
let failures = 0;
const started = performance.now();
for (const r of records) {
  const half = halfOf(r);
  try {
    const html = readFileSync(join(CORPUS, r.html), 'utf8');
    const snapshot = snapshotFromHtml(html, r.url);
    const out = await analyzeBrand({
      requestId: '00000000-0000-4000-8000-000000000000',
      snapshot,
      screenshotUrl: '',
      options: { screenshotColors: null, css: true, html: false, javascript: false },
    });
    const verdicts = scoreBrand(r, out, logoLabels.get(r.page_id));
    rows.push({ half, verdicts });
    if (verbose && half === 'tuning' && verdicts['logos.known logo or icon']?.correct === false) {
      console.log(
        r.page_id,
        '| logo',
        out.logos.primary?.source,
        out.logos.primary?.url.slice(0, 100),
        '| favicon',
        out.logos.favicon_url,
        '| known',
        logoLabels.get(r.page_id)?.logos.join(' '),
      );
    }
  } catch (err) {
    failures++;
    console.error(r.page_id, half === 'tuning' ? `failed: ${(err as Error).message}` : 'failed (validation half)');
  }
}

const summary = summariseHalves(rows);
const rate = (right: number, total: number): { right: number; total: number } => ({ right, total });
console.log(`\nbrand fields over ${rows.length} pages (found: share of all pages with a value; correct: where there is truth)`);
for (const s of summary) {
  console.log(formatHalves(`${s.field} found`, { tuning: rate(s.tuning.found, s.tuning.n), validation: rate(s.validation.found, s.validation.n) }));
  if (s.tuning.withTruth + s.validation.withTruth > 0) {
    console.log(
      formatHalves(`${s.field} correct`, {
        tuning: rate(s.tuning.correct, s.tuning.withTruth),
        validation: rate(s.validation.correct, s.validation.withTruth),
      }),
    );
  }
}
console.log(`\n${records.length} pages, ${failures} failures, ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ ranAt: new Date().toISOString(), pages: rows.length, failures, brand: summary }, null, 2)}\n`);
