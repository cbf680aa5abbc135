/**
 * Keyword evidence on pages written in another language than English: the names people give each
 * kind of business in the languages of Europe ("Zimmerei", "boulangerie", "clínica dental",
 * "biuro rachunkowe"), from OpenStreetMap's tagging presets, mapped to IAB 1.0 categories
 * (scripts/build-trade-names.ts builds data/trade-names.json). The hand-written lexicon and the
 * sentence encoder are English: without these, a German or Polish homepage said nothing to either and
 * came back IAB24 unless its markup declared a schema.org type.
 */
import { readFileSync } from 'node:fs';
import { type IndexedPage, type Keyword, lexiconScore, tokenize } from './lexicon.ts';
import { tier1Of } from './taxonomy.ts';

interface TradeNameFile {
  source: string;
  languages: Record<string, Record<string, string[]>>;
}

const TRADE_NAMES_URL = new URL('../data/trade-names.json', import.meta.url);
let compiled: Map<string, Map<string, Keyword[]>> | undefined;

/** Per language, each category's names as lexicon keywords; a name several families share counts less, as in the lexicon. */
function tradeKeywords(): Map<string, Map<string, Keyword[]>> {
  if (compiled) return compiled;
  const file = JSON.parse(readFileSync(TRADE_NAMES_URL, 'utf8')) as TradeNameFile;
  compiled = new Map();
  for (const [lang, byCategory] of Object.entries(file.languages)) {
    const families = new Map<string, Set<string>>();
    const grams = new Map<string, string[]>();
    for (const [id, words] of Object.entries(byCategory)) {
      const own = [...new Set(words.map((w) => tokenize(w).join(' ')).filter((g) => g.length >= 4 && g.split(' ').length <= 3))];
      grams.set(id, own);
      for (const g of own) families.set(g, (families.get(g) ?? new Set()).add(tier1Of(id)));
    }
    const keywords = new Map<string, Keyword[]>();
    for (const [id, own] of grams)
      keywords.set(
        id,
        own.map((gram) => ({ gram, squashed: gram.replace(/ /g, ''), specificity: (gram.includes(' ') ? 1.3 : 1) / Math.sqrt(families.get(gram)!.size) })),
      );
    compiled.set(lang, keywords);
  }
  return compiled;
}

/** Keyword evidence per category from the trade names of the page's language; empty for a language the file has no names for. */
export function tradeNameScores(page: IndexedPage, lang: string): Map<string, number> {
  const scores = new Map<string, number>();
  for (const [id, keywords] of tradeKeywords().get(lang) ?? []) {
    const s = lexiconScore(page, keywords);
    if (s > 0) scores.set(id, s);
  }
  return scores;
}
