/**
 * Offline evaluation of the company analyzer on the development corpus, without a browser:
 *   .tools/node/bin/node test/eval/offline-company.ts [--verbose]
 * Prints precision and recall per field and the commonest failures with a few examples each.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { analyzeCompany } from '../../services/company/src/analyze.ts';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import { precisionRecall, scoreCompany, type CompanyTruth, type Counts } from './score-company.ts';

interface Record {
  page_id: string;
  source: string;
  html: string;
  url: string;
  domain: string;
  page_role: string;
  gt: CompanyTruth;
}

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/dev');
if (!existsSync(join(corpus, 'ground_truth.jsonl'))) {
  console.log(`skipped: no corpus at ${corpus}`);
  process.exit(0);
}
const verbose = process.argv.includes('--verbose');
const only = process.argv.find((a) => a.startsWith('--page='))?.slice(7);

const records = readFileSync(join(corpus, 'ground_truth.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Record)
  .filter((r) => !only || r.page_id === only);

const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });
const totals = { mainName: { right: 0, total: 0, empty: 0 }, articleName: { right: 0, total: 0 }, legal: zero(), emails: zero(), addresses: zero() };
const failures = new Map<string, string[]>();
const fail = (cls: string, example: string): void => {
  failures.set(cls, [...(failures.get(cls) ?? []), example]);
};
const add = (into: Counts, c: Counts): void => {
  into.tp += c.tp;
  into.fp += c.fp;
  into.fn += c.fn;
};

/** Pages are bytes: UTF-8 when valid, else the Windows-1252 that browsers assume for old Western pages. */
function decodePage(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

const started = performance.now();
for (const r of records) {
  const url = r.url || `http://${r.domain || 'example.invalid'}/`;
  const snapshot = snapshotFromHtml(decodePage(readFileSync(join(corpus, r.html))), url);
  const { data } = analyzeCompany({ requestId: randomUUID(), snapshot, extraSnapshots: [] });
  const s = scoreCompany(r.gt, data);
  if (verbose || only) console.log(r.page_id, JSON.stringify(data));

  if (s.name && r.page_role === 'main') {
    totals.mainName.total++;
    if (s.name.correct) totals.mainName.right++;
    else {
      if (!data.name) totals.mainName.empty++;
      fail(data.name ? 'name: another name chosen' : 'name: none found', `${r.page_id}: "${data.name}" expected "${s.name.expected}"`);
    }
  }
  if (s.name && r.source === 'readability') {
    totals.articleName.total++;
    if (s.name.correct) totals.articleName.right++;
  }
  if (s.legalNames && r.source.startsWith('webstruct')) {
    add(totals.legal, s.legalNames);
    for (const p of s.legalNames.falsePositives) fail('legal name: wrong legal name', `${r.page_id}: "${p}" expected ${JSON.stringify(r.gt.legal_names)}`);
    for (const e of s.legalNames.falseNegatives) fail('legal name: missed', `${r.page_id}: "${e}", got "${data.name}"`);
  }
  if (s.emails && r.page_role === 'contact') {
    add(totals.emails, s.emails);
    for (const p of s.emails.falsePositives) fail('email: extra', `${r.page_id}: ${p}`);
    for (const e of s.emails.falseNegatives) fail(e.includes('@') ? 'email: missed plain' : 'email: missed written-out', `${r.page_id}: ${e}`);
  }
  if (s.addresses) {
    add(totals.addresses, s.addresses);
    for (const p of s.addresses.falsePositives) fail('address: extra', `${r.page_id}: ${p}`);
    for (const e of s.addresses.falseNegatives) fail('address: missed', `${r.page_id}: ${e}  || got ${JSON.stringify(data.addresses)}`);
  }
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
const pr = (label: string, c: Counts): void => {
  const { precision, recall } = precisionRecall(c);
  console.log(`${label.padEnd(34)} precision ${pct(precision).padStart(6)}  recall ${pct(recall).padStart(6)}  (tp ${c.tp}, fp ${c.fp}, fn ${c.fn})`);
};
console.log(`company analyzer on ${records.length} corpus pages (${((performance.now() - started) / 1000).toFixed(1)} s)`);
const m = totals.mainName;
console.log(`${'company name, main pages'.padEnd(34)} right ${m.right}/${m.total} = ${pct(m.total ? m.right / m.total : 1)} (none found on ${m.empty})`);
const a = totals.articleName;
console.log(`${'site name, readability articles'.padEnd(34)} right ${a.right}/${a.total} = ${pct(a.total ? a.right / a.total : 1)}`);
pr('legal names (webstruct pages)', totals.legal);
pr('emails (annotated contact pages)', totals.emails);
pr('addresses (contact-annotated pages)', totals.addresses);
console.log('\nfailure classes, commonest first:');
for (const [cls, examples] of [...failures.entries()].sort((x, y) => y[1].length - x[1].length)) {
  console.log(`  ${cls}: ${examples.length}`);
  for (const e of examples.slice(0, verbose ? 1000 : 5)) console.log(`      ${e.slice(0, 220)}`);
}
