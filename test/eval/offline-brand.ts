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
import { formatHalves, halfOf, HALVES, type Half } from './split.ts';

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
// Known-logo misses by where the page has the known URL and what came back instead: counts, for both
// halves, that say which placement to probe for without showing a validation page.
const logoMisses: { [h in Half]: Map<string, number> } = { tuning: new Map(), validation: new Map() };

/** Where the saved page writes a known logo URL: the markup around the first tag that names its file. */
function placementOf(html: string, url: string): string {
  let file: string;
  try {
    file = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    return 'not a URL';
  }
  if (!file) return 'a directory URL';
  const at = html.toLowerCase().indexOf(file.toLowerCase());
  if (at < 0) return /favicon\.ico$/i.test(file) ? 'not written: /favicon.ico by default' : 'not in the HTML as written';
  const open = html.lastIndexOf('<', at);
  const tag = html.slice(open, html.indexOf('>', at) + 1);
  const name = /^<\s*([a-z0-9:-]+)/i.exec(tag)?.[1]?.toLowerCase() ?? '?';
  const attr = /([a-z:-]+)\s*=\s*["']?[^"'>]*$/i.exec(html.slice(open, at))?.[1]?.toLowerCase() ?? (name === 'style' ? 'css' : '?');
  if (name === 'script') return /ld\+json/i.test(tag) ? 'JSON-LD' : 'in a script';
  if (/url\(/i.test(html.slice(Math.max(open, at - 200), at))) return `CSS url() in <${name}>`;
  const rel = /\brel\s*=\s*["']?([^"'>]+)/i.exec(tag)?.[1]?.toLowerCase();
  return `<${name}${rel ? ` rel=${rel}` : ''}> ${attr}`;
}
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
    if (verdicts['logos.known logo or icon']?.correct === false) {
      const known = logoLabels.get(r.page_id)!.logos;
      const kind = `${[...new Set(known.map((u) => placementOf(html, u)))].sort().join(' | ')}; we gave ${out.logos.primary ? 'a primary logo' : 'no primary logo'}${out.logos.favicon_url ? ' and a favicon' : ''}`;
      logoMisses[half].set(kind, (logoMisses[half].get(kind) ?? 0) + 1);
    }
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
for (const half of HALVES) {
  console.log(`\nknown-logo misses, ${half} half, by where the page has the known URL (counts):`);
  for (const [kind, n] of [...logoMisses[half].entries()].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${kind}`);
}
console.log(`\n${records.length} pages, ${failures} failures, ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ ranAt: new Date().toISOString(), pages: rows.length, failures, brand: summary }, null, 2)}\n`);
