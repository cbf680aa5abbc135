/**
 * Keyword evidence on pages written in another language than English: the names people give each
 * kind of business in the languages of Europe ("Zimmerei", "boulangerie", "clínica dental",
 * "biuro rachunkowe"), from OpenStreetMap's tagging presets, mapped to IAB 1.0 categories
 * (scripts/build-trade-names.ts builds data/trade-names.json). The hand-written lexicon and the
 * sentence encoder are English: without these, a German or Polish homepage said nothing to either and
 * came back IAB24 unless its markup declared a schema.org type.
 */
import { readFileSync } from 'node:fs';
import { compileKeywords, type IndexedPage, type Keyword, lexiconScore, tokenize } from './lexicon.ts';

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
    const grams = new Map<string, string[]>();
    for (const [id, words] of Object.entries(byCategory))
      grams.set(id, [...new Set(words.map((w) => tokenize(w).join(' ')).filter((g) => g.length >= 4 && g.split(' ').length <= 3))]);
    compiled.set(lang, compileKeywords(grams));
  }
  return compiled;
}

/** Languages that write a trade into compound words: "Malerbetrieb", "tandläkarmottagning", "rørleggerfirma". */
const COMPOUNDING = new Set(['de', 'nl', 'sv', 'da', 'no', 'fi']);
/** The shortest trade name read inside a compound, and the fewest letters the rest of the word must have. */
const MIN_PART = 5;
const MIN_REST = 4;

let compoundIndex: Map<string, Map<string, Array<{ id: string; keyword: Keyword }>>> | undefined;
/** Per compounding language, its one-word trade names of MIN_PART letters or more, with their categories. */
function compoundParts(lang: string): Map<string, Array<{ id: string; keyword: Keyword }>> {
  compoundIndex ??= new Map();
  let parts = compoundIndex.get(lang);
  if (!parts) {
    parts = new Map();
    for (const [id, keywords] of tradeKeywords().get(lang) ?? [])
      for (const keyword of keywords)
        if (!keyword.gram.includes(' ') && keyword.gram.length >= MIN_PART) parts.set(keyword.gram, [...(parts.get(keyword.gram) ?? []), { id, keyword }]);
    compoundIndex.set(lang, parts);
  }
  return parts;
}

/**
 * Trade names inside the page's compound words, in the languages that write them so: a word of nine
 * letters or more that is no name itself, opening or ending with a name of MIN_PART letters or more
 * with MIN_REST left over ("Zahnarzt|praxis", "Maler|meisterbetrieb"; not "bil|verkstad", whose part
 * is too short). Counted like a mention of that name.
 */
function compoundScores(page: IndexedPage, lang: string, scores: Map<string, number>): void {
  const parts = compoundParts(lang);
  if (!parts.size) return;
  for (const [field, counts] of Object.entries(page.fields) as [keyof IndexedPage['fields'], Map<string, number>][]) {
    for (const [word, n] of counts) {
      if (word.includes(' ') || word.length < MIN_PART + MIN_REST || parts.has(word)) continue;
      const found = new Set<string>();
      for (let i = MIN_PART; i <= word.length - MIN_REST; i++) {
        for (const part of [word.slice(0, i), word.slice(word.length - i)]) if (parts.has(part)) found.add(part);
      }
      for (const part of found)
        for (const { id, keyword } of parts.get(part)!) scores.set(id, (scores.get(id) ?? 0) + page.weights[field] * Math.log2(1 + n) * keyword.specificity);
    }
  }
}

/** Keyword evidence per category from the trade names of the page's language; empty for a language the file has no names for. */
export function tradeNameScores(page: IndexedPage, pageLang: string): Map<string, number> {
  // Norwegian is written "nb" (Bokmål), "nn" (Nynorsk) or "no"; the presets give it as "no".
  const lang = pageLang === 'nb' || pageLang === 'nn' ? 'no' : pageLang;
  const scores = new Map<string, number>();
  for (const [id, keywords] of tradeKeywords().get(lang) ?? []) {
    const s = lexiconScore(page, keywords);
    if (s > 0) scores.set(id, s);
  }
  if (COMPOUNDING.has(lang)) compoundScores(page, lang, scores);
  return scores;
}
