/**
 * Keyword evidence: how strongly each category's words occur in each part of a page. Pages are
 * indexed once into word n-grams (light stemming: plural "s"/"ies" folded), so the cost is linear in
 * the page text whatever the size of the lexicon.
 */
import { LEXICON } from './lexicon-data.ts';
import type { PageEvidence } from './page-evidence.ts';
import { iabTaxonomy, tier1Of, type Taxonomy } from './taxonomy.ts';

/**
 * Official names that are no evidence on their own: vague words ("Portable", "Entertainment",
 * "Options"), words every contact page has ("Email"), and places, which name where a business is or
 * ships to far more often than a travel topic ("Canada", "Mexico & Central America").
 */
const VAGUE_NAMES = new Set([
  'IAB3-7',
  'IAB2-13',
  'IAB2-5',
  'IAB2-9',
  'IAB2-12',
  'IAB2-18',
  'IAB12-2',
  'IAB13-9',
  'IAB14-6',
  'IAB17-42',
  'IAB19-15',
  'IAB19-28',
  'IAB19-29',
  'IAB22-3',
  'IAB22-4',
  'IAB24',
  'IAB25',
  'IAB25-1',
  'IAB25-7',
  'IAB26',
  'IAB26-1',
  'IAB20-2',
  'IAB20-4',
  'IAB20-8',
  'IAB20-10',
  'IAB20-13',
  'IAB20-14',
  'IAB20-15',
  'IAB20-16',
  'IAB20-19',
  'IAB20-20',
  'IAB20-21',
  'IAB20-23',
  'IAB20-27',
]);

/** Words ending in "s" that are no plural: folding them would meet another word ("news" -> "new"). */
const NOT_PLURAL = new Set(['news', 'series', 'species', 'always', 'perhaps', 'whereas', 'towards', 'afterwards']);

export function normalizeToken(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/, '');
  if (NOT_PLURAL.has(w)) return w;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  return w;
}

export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? []).map(normalizeToken);
}

const MAX_GRAM = 3;

/** Counts of every 1..3-word sequence in the text, keyed by the normalized words joined with spaces. */
export function indexNgrams(text: string): Map<string, number> {
  const tokens = tokenize(text);
  const counts = new Map<string, number>();
  for (let i = 0; i < tokens.length; i++) {
    let gram = '';
    for (let n = 0; n < MAX_GRAM && i + n < tokens.length; n++) {
      gram = n === 0 ? tokens[i]! : `${gram} ${tokens[i + n]}`;
      counts.set(gram, (counts.get(gram) ?? 0) + 1);
    }
  }
  return counts;
}

export interface Keyword {
  /** Normalized, space-joined words. */
  gram: string;
  /** Raw letters only ("webdesign"), to find the word run together in a host name. */
  squashed: string;
  /** Down-weights words shared by several tier-1 families. */
  specificity: number;
}

export interface Lexicon {
  keywordsOf(id: string): readonly Keyword[];
}

/**
 * Words of official names that every site's navigation or title has ("Home"): no evidence alone.
 * Tuning half: "home" is on 48 sites' pages, 42 of them not Home & Garden.
 */
const CHROME_NAME_WORDS = new Set(['home']);

function nameKeywords(name: string): string[] {
  return name
    .split(/[/&,]| - /)
    .map((s) => s.trim())
    .filter((s) => s.length > 2 && !CHROME_NAME_WORDS.has(s.toLowerCase()));
}

export function buildLexicon(tax: Taxonomy = iabTaxonomy(), data: Record<string, string> = LEXICON): Lexicon {
  const raw = new Map<string, string[]>();
  for (const c of tax.all) {
    const own = (data[c.id] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const fromName = VAGUE_NAMES.has(c.id) ? [] : nameKeywords(c.name);
    // A one-letter gram ("C++" -> "c") would match initials and list markers.
    raw.set(c.id, [...new Set([...own, ...fromName].map((k) => tokenize(k).join(' ')).filter((k) => k.length > 1))]);
  }
  const compiled = compileKeywords(raw);
  return { keywordsOf: (id) => compiled.get(id) ?? [] };
}

/**
 * Each category's normalized grams as keywords: a phrase counts a little more than a word, and a gram
 * several tier-1 families share counts less (divided by the square root of their number).
 */
export function compileKeywords(raw: ReadonlyMap<string, readonly string[]>): Map<string, Keyword[]> {
  const families = new Map<string, Set<string>>();
  for (const [id, grams] of raw) {
    for (const g of grams) {
      const set = families.get(g) ?? new Set<string>();
      set.add(tier1Of(id));
      families.set(g, set);
    }
  }
  const compiled = new Map<string, Keyword[]>();
  for (const [id, grams] of raw) {
    compiled.set(
      id,
      grams.map((gram) => ({
        gram,
        squashed: gram.replace(/ /g, ''),
        specificity: (gram.includes(' ') ? 1.3 : 1) / Math.sqrt(families.get(gram)!.size),
      })),
    );
  }
  return compiled;
}

/** How much a mention in each part of the page counts. The page's own summary outweighs its body. */
export const FIELD_WEIGHTS = { title: 3, descriptions: 2.5, keywords: 1, h1: 2, subheadings: 1, nav: 1, host: 2, visible: 0.6 } as const;
type Field = keyof typeof FIELD_WEIGHTS;
export type FieldWeights = Record<Field, number>;

/**
 * On an article page the article is the topic: its headline joins the title, its body replaces the
 * page's visible text and weighs more, and the site's chrome (navigation, host name, section
 * headings of sidebars) weighs less.
 */
export const ARTICLE_FIELD_WEIGHTS: FieldWeights = { title: 3, descriptions: 2.5, keywords: 0.5, h1: 2, subheadings: 0.5, nav: 0.2, host: 0.5, visible: 1.2 };

export interface IndexedPage {
  fields: Record<Exclude<Field, 'host'>, Map<string, number>>;
  /** Host labels without the public suffix guesswork: "misterplumber.ca" -> "misterplumberca". */
  host: string;
  weights: FieldWeights;
}

export function indexPage(page: PageEvidence): IndexedPage {
  const article = page.article;
  return {
    fields: {
      title: indexNgrams(article && !page.title.includes(article.headline) ? `${page.title} . ${article.headline}` : page.title),
      descriptions: indexNgrams(page.descriptions.join(' . ')),
      keywords: indexNgrams(page.keywords.join(' . ')),
      h1: indexNgrams(page.h1.join(' . ')),
      subheadings: indexNgrams(page.subheadings.join(' . ')),
      nav: indexNgrams(page.nav.join(' . ')),
      visible: indexNgrams(article ? article.body : page.visible),
    },
    host: page.host.replace(/[^a-z0-9]/g, ''),
    weights: article ? ARTICLE_FIELD_WEIGHTS : FIELD_WEIGHTS,
  };
}

/** Keyword evidence of one category on one page (0 when none of its words occur). */
export function lexiconScore(page: IndexedPage, keywords: readonly Keyword[]): number {
  let score = 0;
  for (const kw of keywords) {
    for (const [field, counts] of Object.entries(page.fields) as [Exclude<Field, 'host'>, Map<string, number>][]) {
      const n = counts.get(kw.gram);
      if (n) score += page.weights[field] * Math.log2(1 + n) * kw.specificity;
    }
    // Only long words: "bar" would be found in "barbara".
    if (kw.squashed.length >= 5 && page.host.includes(kw.squashed)) score += page.weights.host * kw.specificity;
  }
  return score;
}

/** Evidence for every taxonomy id; tier-1 ids hold only their own words (children are summed by the classifier). */
export function scoreAllCategories(page: IndexedPage, lexicon: Lexicon, tax: Taxonomy = iabTaxonomy()): Map<string, number> {
  const scores = new Map<string, number>();
  for (const c of tax.all) scores.set(c.id, lexiconScore(page, lexicon.keywordsOf(c.id)));
  return scores;
}
