/**
 * Audits the hand-written lexicon against the TUNING half of the dev corpus (never the validation
 * half): for every word of lexicon-data.ts, the number of tuning sites labelled in the word's tier-1
 * family whose pages use it ("support"), and the number of tuning sites of other families that use it
 * ("elsewhere"). A word with support < 3 must be a general-vocabulary term for its category to stay.
 *   node services/classifier/scripts/audit-lexicon.ts [--all]
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LEXICON } from '../src/lexicon-data.ts';
import { indexPage } from '../src/lexicon.ts';
import { gatherPageEvidence } from '../src/page-evidence.ts';
import { tokenize } from '../src/lexicon.ts';
import { tier1Of } from '../src/taxonomy.ts';
import { snapshotFromHtml } from '../../../test/support/snapshot-from-html.ts';
import { halfOf, siteOf } from '../../../test/eval/split.ts';

const CORPUS = new URL('../../../../shared/corpus/dev/', import.meta.url).pathname;
const GT = join(CORPUS, 'ground_truth.jsonl');
if (!existsSync(GT)) {
  console.log(`skipped: corpus not found at ${CORPUS}`);
  process.exit(0);
}
interface Rec {
  html: string;
  url: string;
  domain: string;
  gt: { iab_tier1?: string | null };
}
const recs = readFileSync(GT, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Rec)
  .filter((r) => r.gt.iab_tier1 && halfOf(r) === 'tuning');

/** site -> (tier-1 label, every gram used anywhere on its pages, host letters). */
const sites = new Map<string, { family: string; grams: Set<string>; host: string }>();
for (const r of recs) {
  const page = indexPage(gatherPageEvidence(snapshotFromHtml(readFileSync(join(CORPUS, r.html), 'utf8'), r.url), r.url));
  const s = sites.get(siteOf(r)) ?? { family: r.gt.iab_tier1!, grams: new Set<string>(), host: page.host };
  for (const counts of Object.values(page.fields)) for (const g of counts.keys()) s.grams.add(g);
  sites.set(siteOf(r), s);
}

const showAll = process.argv.includes('--all');
console.log(`${sites.size} tuning sites`);
for (const [id, words] of Object.entries(LEXICON).sort(([a], [b]) => a.localeCompare(b))) {
  const family = tier1Of(id);
  for (const word of words
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean)) {
    const gram = tokenize(word).join(' ');
    const squashed = gram.replace(/ /g, '');
    const uses = [...sites.values()].filter((s) => s.grams.has(gram) || (squashed.length >= 5 && s.host.includes(squashed)));
    const support = uses.filter((s) => s.family === family).length;
    const elsewhere = uses.length - support;
    if (showAll || support < 3) console.log(`${id.padEnd(9)} ${String(support).padStart(2)} ${String(elsewhere).padStart(3)}  ${word}`);
  }
}
