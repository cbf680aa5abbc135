/**
 * Offline evaluation of the company analyzer on the development corpus, without a browser:
 *   .tools/node/bin/node test/eval/offline-company.ts [--verbose] [--page=ID]
 * Prints every figure for the validation half and the tuning half of the corpus (split by site,
 * test/eval/split.ts) and the gap between them. Failure examples and per-page replies are printed for
 * the tuning half only; of the validation half only counts are shown, so that nothing is tuned on it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { CompanyData, Snapshot } from '@enrich/shared/contracts';
import { analyzeCompany } from '../../services/company/src/analyze.ts';
import { legalFormOf, stripLegalForm } from '../../services/company/src/legal-forms.ts';
import { ownerAffinity } from '../../services/company/src/owner-name.ts';
import { readPageEvidence } from '../../services/company/src/page-evidence.ts';
import { findLegalNamesInText, type NameCandidate } from '../../services/company/src/legal-name.ts';
import { domainLabel, registrableDomain } from '@enrich/shared/page';
import { snapshotFromHtml } from '../support/snapshot-from-html.ts';
import {
  decodePage,
  loadEmailLabels,
  normaliseCompanyName,
  scoreCompany,
  withEmailLabels,
  legalNameMatches,
  withStatedLegalNames,
  type CompanyTruth,
  type Counts,
} from './score-company.ts';
import { formatHalves, halfOf, HALVES, siteOf, type Half } from './split.ts';

interface Record {
  page_id: string;
  source: string;
  html: string;
  url: string;
  domain: string;
  page_role: string;
  gt: CompanyTruth;
}

interface Rate {
  right: number;
  total: number;
}
const rate = (): Rate => ({ right: 0, total: 0 });
const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });
const newTotals = () => ({
  mainName: rate(),
  webstructName: rate(),
  articleName: rate(),
  articleBrand: rate(),
  allName: rate(),
  brand: rate(),
  statedLegal: rate(),
  mainEmpty: 0,
  legal: zero(),
  legalWithLabels: zero(),
  emails: zero(),
  addresses: zero(),
  addressPages: { recallSum: 0, pages: 0 },
});
type Totals = ReturnType<typeof newTotals>;

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/dev');
if (!existsSync(join(corpus, 'ground_truth.jsonl'))) {
  console.log(`skipped: no corpus at ${corpus}`);
  process.exit(0);
}
const verbose = process.argv.includes('--verbose');
const only = process.argv.find((a) => a.startsWith('--page='))?.slice(7);

const allRecords = readFileSync(join(corpus, 'ground_truth.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Record);
const records = withStatedLegalNames(allRecords, corpus, siteOf).filter((r) => !only || r.page_id === only);

const totals: { [h in Half]: Totals } = { tuning: newTotals(), validation: newTotals() };
const failures: { [h in Half]: Map<string, string[]> } = { tuning: new Map(), validation: new Map() };

const add = (into: Counts, c: Counts): void => {
  into.tp += c.tp;
  into.fp += c.fp;
  into.fn += c.fn;
};
const bump = (x: Rate, right: boolean): void => {
  x.total++;
  if (right) x.right++;
};

/** Adds one page's scores to its half's totals and failure classes. */
const emailLabels = loadEmailLabels('markup');

/** Where the analyzer's candidates have ours and the stated name: which sources read each, or none. */
function candidateDetail(predicted: string, expected: readonly string[], candidates: readonly NameCandidate[]): string {
  const sources = (match: (name: string) => boolean): string => {
    const found = [...new Set(candidates.filter((c) => match(c.name)).map((c) => `${c.source}${c.legal ? '+legal' : ''}`))].sort();
    return found.length ? found.join('/') : 'no candidate';
  };
  return `ours from ${sources((n) => legalNameMatches(n, predicted))}, stated from ${sources((n) => expected.some((e) => legalNameMatches(n, e)))}`;
}

/**
 * Why no candidate reads a stated name: whether the snapshot's visible text has it, whether the text
 * reader finds it there (and where in its list), its legal form and length, and what precedes it.
 */
function unreadDetail(expected: readonly string[], snapshot: Snapshot): string {
  const visible = snapshot.text.visible;
  const lower = visible.toLowerCase().replace(/\s+/g, ' ');
  const e = expected.find((x) => lower.includes(x.toLowerCase().replace(/\s+/g, ' '))) ?? expected[0]!;
  const inText = lower.includes(e.toLowerCase().replace(/\s+/g, ' '));
  const found = findLegalNamesInText(visible);
  const at = found.findIndex((n) => legalNameMatches(n, e));
  const reader = at < 0 ? 'not read by the text reader' : at >= 50 ? `read as text name ${at + 1} (past 50)` : 'read by the text reader';
  const i = visible.toLowerCase().indexOf(e.toLowerCase());
  const before = i < 0 ? '' : visible.slice(Math.max(0, i - 30), i);
  const lead =
    i < 0
      ? 'not found as written'
      : /\n\s*$/.test(before)
        ? 'at a line start'
        : /[©]|\(c\)|copyright/i.test(before)
          ? 'after a copyright on its line'
          : 'inside a line';
  const has = (chunks: Iterable<RegExpMatchArray>): boolean =>
    [...chunks].some((m) => m[0].toLowerCase().replace(/\s+/g, ' ').includes(e.toLowerCase().replace(/\s+/g, ' ')));
  const html = snapshot.html;
  const place = inText
    ? ''
    : has(html.matchAll(/<!--[\s\S]*?-->/g))
      ? ' (in an HTML comment)'
      : has(html.matchAll(/<(script|noscript|style|template|textarea)\b[\s\S]*?<\/\1>/gi))
        ? ' (in a script, noscript, style, template or textarea)'
        : has(html.matchAll(/<[a-z][^>]*>/gi))
          ? ' (in an attribute)'
          : ' (elsewhere in the markup)';
  const folded = (t: string): string =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const words = folded(e).split(' ');
  const spelled = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('([^\\p{L}\\p{N}]+)'), 'iu').exec(visible);
  const seps = spelled ? [...new Set(spelled.slice(1).map((x) => JSON.stringify(x)))].join(' ') : '';
  let relation = '';
  if (spelled) {
    const start = spelled.index;
    const end = start + spelled[0].length;
    const commaAt = spelled
      .slice(1)
      .map((x, k) => (x.includes(',') ? k + 1 : 0))
      .filter(Boolean);
    const written = spelled[0].split(/[^\p{L}\p{N}]+/u);
    const lower = written
      .map((w, k) =>
        /^\p{Lu}/u.test(w) ? '' : `word ${k + 1} ${/^\p{N}/u.test(w) ? 'a number' : /^\p{Ll}+$/u.test(w) ? `lower-case, ${w.length} letters` : 'mixed case'}`,
      )
      .filter(Boolean);
    const capitals = lower.length ? `not capitalised: ${lower.join(', ')}` : 'every word capitalised';
    const overlaps = found.filter((n) => {
      const j = visible.indexOf(n, Math.max(0, start - 200));
      return j >= 0 && j < end && j + n.length > start;
    });
    const relate = overlaps.map((n) => {
      const j = visible.indexOf(n, Math.max(0, start - 200));
      return j < start ? 'a reader name starting before it' : j > start ? 'a reader name starting inside it' : 'a reader name starting with it';
    });
    relation = `; comma after word ${commaAt.join('+')} of ${words.length}, ${capitals}, ${relate.length ? [...new Set(relate)].join(' & ') : 'no reader name overlapping'}`;
  }
  const loose = inText
    ? ''
    : folded(visible).includes(folded(e))
      ? `, there without its punctuation (separators ${seps}${relation})`
      : folded(snapshot.text.footer ?? '').includes(folded(e))
        ? ', in the footer text'
        : '';
  const tagsOut = folded(
    html
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<[^>]+>/g, ' '),
  );
  const split = inText || loose ? '' : tagsOut.includes(folded(e)) ? ', in the markup with tags between its words' : ', not in the markup text either';
  return `${inText ? 'in the visible text' : `not in the visible text${place}${loose}${split}`}, ${reader}, form ${legalFormOf(e) ? 'known' : 'unknown'}, ${e.split(/\s+/).length} words, ${lead}; ${found.length} text names`;
}

/**
 * What kind of miss a stated legal name is, and where the page states it: counts that say which kind
 * to probe for without showing a validation page. `html` is the saved page. For another
 * legal-form name: which evidence favours ours, which candidates read each, and why none reads the
 * stated one.
 */
function statedMissKind(predicted: string, expected: readonly string[], html: string, domain: string, snapshot: Snapshot): string {
  const candidates = readPageEvidence(snapshot, domain).names;
  const fold = (s: string): string =>
    s
      .toLowerCase()
      .replace(/&amp;/g, '&')
      .replace(/[^a-z0-9&]+/g, ' ')
      .trim();
  const core = (s: string): string => normaliseCompanyName(stripLegalForm(s));
  const answer = !predicted
    ? 'no name'
    : expected.some((e) => core(e) === core(predicted))
      ? legalFormOf(predicted)
        ? 'the stated name with another legal form'
        : 'the stated name without its legal form'
      : legalFormOf(predicted)
        ? 'another legal-form name'
        : 'a name with no legal form';
  const text = fold(
    html
      .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&nbsp;|&#160;/g, ' ')
      .replace(/©|&copy;|&#169;/gi, ' (c) '),
  );
  const ld = fold([...html.matchAll(/<script[^>]*ld\+json[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]).join(' '));
  const at = (e: string): string => {
    const f = fold(e);
    const i = text.indexOf(f);
    if (i < 0)
      return ld.includes(f) ? 'JSON-LD only' : text.includes(fold(stripLegalForm(e))) ? 'only without its form in the text' : 'not in the text as written';
    return /copyright|\bc\b|\b(?:19|20)\d\d\b/.test(text.slice(Math.max(0, i - 40), i)) ? 'after a copyright or year' : 'in running text';
  };
  const where = [...new Set(expected.map(at))].sort().join(' | ');
  if (answer !== 'another legal-form name') return `${answer}; stated ${where}`;
  const own = text.indexOf(fold(predicted));
  const stated = expected.map((e) => text.indexOf(fold(e))).filter((i) => i >= 0);
  const order = own < 0 || !stated.length ? '' : own < Math.min(...stated) ? ', before the stated one' : ', after the stated one';
  // Which evidence favours ours: how often each is written, its closeness to the domain, and whether
  // the two share their first word (two companies of one group).
  const count = (e: string): number => text.split(fold(e)).length - 1;
  const cmp = (a: number, b: number): string => (a > b ? 'more' : a < b ? 'less' : 'same');
  const best = expected.reduce((x, e) => (count(e) > count(x) ? e : x), expected[0]!);
  const firstWord = (e: string): string => fold(stripLegalForm(e)).split(' ')[0] ?? '';
  const detail = `ours written ${cmp(count(predicted), count(best))} often, domain affinity ${cmp(ownerAffinity(predicted, domain, []), Math.max(...expected.map((e) => ownerAffinity(e, domain, []))))}${expected.some((e) => firstWord(e) === firstWord(predicted)) ? ', same first word' : ''}`;
  const unread = candidates.some((c) => expected.some((e) => legalNameMatches(c.name, e))) ? '' : `; unread: ${unreadDetail(expected, snapshot)}`;
  return `${answer} (${at(predicted)}${order}; ${detail}; ${candidateDetail(predicted, expected, candidates)}${unread}); stated ${where}`;
}

const US_STATE_ALTERNATION =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming';

/** What kind of address was missed: its postcode's format, whether the page's text has it, a partial find. */
function addressMissKind(expected: string, found: readonly string[], snapshot: Snapshot, onPage: number): string {
  const format = /\b[A-Z]{2}\.?,?\s*\d{5}(?:-\d{4})?\b/.test(expected)
    ? 'a US state and ZIP'
    : /\b[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}\b/i.test(expected)
      ? 'a UK postcode'
      : /\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/i.test(expected)
        ? 'a Canadian postcode'
        : /\b\d{4,5}\b/.test(expected)
          ? 'a 4-5 digit number'
          : 'no postcode';
  const tokens = (t: string): string[] =>
    t
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const text = new Set(tokens(snapshot.text.visible));
  const e = tokens(expected);
  const shown = e.filter((t) => text.has(t)).length / Math.max(1, e.length);
  const numbers = e.filter((t) => /^\d+$/.test(t));
  const partial = found.some((f) => numbers.some((n) => tokens(f).includes(n)));
  const shape =
    format === 'no postcode'
      ? ` (${/^\s*\d/.test(expected) ? 'opens with a number' : /\d/.test(expected) ? 'a number inside' : 'no number'}; ${expected.split(',').length} parts${/\b(?:street|st|road|rd|avenue|ave|blvd|boulevard|drive|dr|lane|ln|way|court|ct|place|pl|parkway|pkwy|highway|hwy)\b\.?/i.test(expected) ? '; a street suffix' : ''}${new RegExp(`(?:,|\\s)\\s*(?:${US_STATE_ALTERNATION})\\.?\\s*$`).test(expected) ? '; ends with a US state' : ''}${/\b(?:P\.?\s?O\.?\s*Box)\b/i.test(expected) ? '; a PO box' : ''})`
      : '';
  return `${format}${shape}, ${shown >= 0.8 ? 'in the text' : shown >= 0.5 ? 'half in the text' : 'not in the text'}${partial ? ', a find shares its numbers' : ''}${onPage >= 10 ? ', on a page of 10+ addresses' : ''}`;
}

/** How a chosen name relates to the expected one: counts that say which kind of miss to probe for. */
function nameMissKind(predicted: string, expected: string, candidates?: readonly NameCandidate[], snapshot?: Snapshot): string {
  const words = (t: string): string[] =>
    stripLegalForm(t)
      .toLowerCase()
      .replace(/&/g, ' and ')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1 && w !== 'the' && w !== 'and');
  const [p, e] = [normaliseCompanyName(predicted), normaliseCompanyName(expected)];
  const [pw, ew] = [words(predicted), words(expected)];
  const shared = pw.filter((w) => ew.includes(w)).length;
  const form = legalFormOf(predicted) ? ', ours with a legal form' : '';
  const where = candidates ? `; ${nameCandidateDetail(expected, candidates, snapshot!)}` : '';
  if (p.includes(e)) return `ours contains the expected${form}${where}`;
  if (e.includes(p)) return `the expected contains ours${form}${where}`;
  if (shared) return `${shared === Math.min(pw.length, ew.length) ? 'all words of the shorter shared' : 'a word shared'}${form}${where}`;
  return `nothing shared${form}${/\.[a-z]{2,}$/i.test(predicted) ? ', ours a host' : ''}${where}`;
}

/** Whether the expected name is a candidate, from which sources, and where the page writes it. */
function nameCandidateDetail(expected: string, candidates: readonly NameCandidate[], snapshot: Snapshot): string {
  const key = normaliseCompanyName(expected);
  const from = [...new Set(candidates.filter((c) => normaliseCompanyName(c.name) === key).map((c) => c.source))].sort();
  const fold = (t: string): string =>
    t
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const e = fold(expected);
  const places = [
    fold(snapshot.title).includes(e) ? 'title' : '',
    snapshot.images.some((i) => fold(i.alt ?? '').includes(e)) ? 'an image alt' : '',
    fold(snapshot.text.visible).includes(e) ? 'the text' : '',
    snapshot.meta.some((m) => fold(m.content ?? '').includes(e)) ? 'a meta tag' : '',
  ].filter(Boolean);
  return `expected ${from.length ? `a candidate from ${from.join('/')}` : 'no candidate'}, written in ${places.length ? places.join(', ') : 'none of title, alts, text, meta'}`;
}

function tally(r: Record, data: CompanyData, t: Totals, fail: (cls: string, example: string) => void, html: string, snapshot: Snapshot): void {
  const s = scoreCompany(withEmailLabels(r.gt, emailLabels.get(r.page_id)), data);
  if (s.name && r.page_role === 'main') {
    bump(t.mainName, s.name.correct);
    if (!s.name.correct) {
      if (!data.name) t.mainEmpty++;
      fail(
        data.name
          ? `name: another name chosen (${nameMissKind(data.name, s.name.expected, readPageEvidence(snapshot, domainLabel(registrableDomain(snapshot.finalUrl))).names, snapshot)})`
          : 'name: none found',
        `${r.page_id}: "${data.name}" expected "${s.name.expected}"`,
      );
    }
  }
  if (s.name && r.source.startsWith('webstruct')) bump(t.webstructName, s.name.correct);
  if (s.name) bump(t.allName, s.name.correct);
  if (s.brand) {
    bump(t.brand, s.brand.correct);
    if (!s.brand.correct && (r.page_role === 'main' || r.source === 'readability'))
      fail('brand name: another name', `${r.page_id}: "${data.brand_name}" expected "${s.name?.expected}"`);
  }
  if (s.statedLegal) {
    bump(t.statedLegal, s.statedLegal.correct);
    if (!s.statedLegal.correct)
      fail(
        `legal name where stated: missed, ${statedMissKind(data.name, s.statedLegal.expected, html, domainLabel(registrableDomain(snapshot.finalUrl)), snapshot)}`,
        `${r.page_id}: "${data.name}" expected ${JSON.stringify(s.statedLegal.expected)}`,
      );
  }
  if (s.name && r.source === 'readability') {
    bump(t.articleName, s.name.correct);
    bump(t.articleBrand, !!s.brand?.correct);
    if (!s.name.correct) fail('site name (article): another name', `${r.page_id}: "${data.name}" expected "${s.name.expected}"`);
  }
  if (s.legalNames && r.source.startsWith('webstruct')) {
    add(t.legal, s.legalNames);
    if (s.legalNamesWithLabels) add(t.legalWithLabels, s.legalNamesWithLabels);
    for (const p of s.legalNames.falsePositives)
      fail(
        `legal name: wrong legal name (${r.gt.legal_names?.length ? 'the corpus names another' : 'the corpus names none'}${s.statedLegal ? ', a label states one' : ''})`,
        `${r.page_id}: "${p}" expected ${JSON.stringify(r.gt.legal_names)}`,
      );
    for (const e of s.legalNames.falseNegatives) fail('legal name: missed', `${r.page_id}: "${e}", got "${data.name}"`);
  }
  if (s.emails && r.page_role === 'contact') {
    add(t.emails, s.emails);
    for (const p of s.emails.falsePositives) fail('email: extra', `${r.page_id}: ${p}`);
    for (const e of s.emails.falseNegatives) fail(e.includes('@') ? 'email: missed plain' : 'email: missed written-out', `${r.page_id}: ${e}`);
  }
  if (s.addresses) {
    add(t.addresses, s.addresses);
    if (s.addresses.tp + s.addresses.fn > 0) {
      t.addressPages.pages++;
      t.addressPages.recallSum += s.addresses.tp / (s.addresses.tp + s.addresses.fn);
    }
    for (const p of s.addresses.falsePositives) fail('address: extra', `${r.page_id}: ${p}`);
    for (const e of s.addresses.falseNegatives)
      fail(
        `address: missed (${addressMissKind(e, data.addresses, snapshot, s.addresses.falseNegatives.length + s.addresses.tp)})`,
        `${r.page_id}: ${e}  || got ${JSON.stringify(data.addresses)}`,
      );
  }
}

const started = performance.now();
for (const r of records) {
  const half = halfOf(r);
  const url = r.url || `http://${r.domain || 'example.invalid'}/`;
  const html = decodePage(readFileSync(join(corpus, r.html)));
  const snapshot = snapshotFromHtml(html, url);
  const { data } = analyzeCompany({ requestId: randomUUID(), snapshot, extraSnapshots: [] });
  if (verbose || only) console.log(r.page_id, half === 'tuning' ? JSON.stringify(data) : '(validation half: reply not shown)');
  const classes = failures[half];
  tally(r, data, totals[half], (cls, example) => classes.set(cls, [...(classes.get(cls) ?? []), example]), html, snapshot);
}

const byHalf = (f: (t: Totals) => Rate): { [h in Half]: Rate } => ({ tuning: f(totals.tuning), validation: f(totals.validation) });
const precision = (c: Counts): Rate => ({ right: c.tp, total: c.tp + c.fp });
const recall = (c: Counts): Rate => ({ right: c.tp, total: c.tp + c.fn });

console.log(`company analyzer on ${records.length} corpus pages (${((performance.now() - started) / 1000).toFixed(1)} s); gap = tuning − validation, points`);
console.log(
  formatHalves(
    'company name, main pages',
    byHalf((t) => t.mainName),
  ),
);
console.log(
  formatHalves(
    'company name, all webstruct pages',
    byHalf((t) => t.webstructName),
  ),
);
console.log(
  formatHalves(
    'site name = name, readability articles',
    byHalf((t) => t.articleName),
  ),
);
console.log(
  formatHalves(
    'site name = brand_name, readability',
    byHalf((t) => t.articleBrand),
  ),
);
console.log(
  formatHalves(
    'company name, all pages with an owner',
    byHalf((t) => t.allName),
  ),
);
console.log(
  formatHalves(
    'brand_name, all pages with an owner',
    byHalf((t) => t.brand),
  ),
);
console.log(
  formatHalves(
    'legal name where stated (corpus+labels)',
    byHalf((t) => t.statedLegal),
  ),
);
console.log(
  formatHalves(
    'legal names (corpus), precision',
    byHalf((t) => precision(t.legal)),
  ),
);
console.log(
  formatHalves(
    'legal names (corpus), recall',
    byHalf((t) => recall(t.legal)),
  ),
);
console.log(
  formatHalves(
    'legal names (corpus+labels), precision',
    byHalf((t) => precision(t.legalWithLabels)),
  ),
);
console.log(
  formatHalves(
    'emails (contact pages), precision',
    byHalf((t) => precision(t.emails)),
  ),
);
console.log(
  formatHalves(
    'emails (contact pages), recall',
    byHalf((t) => recall(t.emails)),
  ),
);
console.log(
  formatHalves(
    'addresses, precision',
    byHalf((t) => precision(t.addresses)),
  ),
);
console.log(
  formatHalves(
    'addresses, recall',
    byHalf((t) => recall(t.addresses)),
  ),
);
// One page with 83 annotated offices weighs as much as 40 small-business pages in the figure above.
const pageMean = (t: Totals): Rate => ({ right: Math.round(1000 * t.addressPages.recallSum) / 1000, total: t.addressPages.pages });
console.log(formatHalves('addresses, recall averaged over pages', byHalf(pageMean)));
console.log(`main pages with no name: validation ${totals.validation.mainEmpty}, tuning ${totals.tuning.mainEmpty}`);

for (const half of HALVES) {
  const classes = [...failures[half].entries()].sort((x, y) => y[1].length - x[1].length);
  console.log(`\nfailure classes, ${half} half${half === 'validation' ? ' (counts only)' : ''}, commonest first:`);
  for (const [cls, examples] of classes) {
    console.log(`  ${cls}: ${examples.length}`);
    if (half === 'tuning') for (const e of examples.slice(0, verbose ? 1000 : 5)) console.log(`      ${e.slice(0, 220)}`);
  }
}
