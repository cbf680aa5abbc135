/**
 * Chooses the IAB category from three kinds of evidence a page gives about itself:
 *   keywords (lexicon.ts) in title, descriptions, headings, navigation, host and body;
 *   declared schema.org types (schema-types.ts);
 *   semantic similarity of the page's own summary to each category (sentence embeddings).
 * Tier-1 first, over all families; tier-2 only among the chosen family's children, and only when
 * one child stands out. A page with a few sentences of English prose and no clear evidence gets the
 * embedding's nearest category; only a page with too little text to judge gets IAB24
 * "Uncategorized" (see README, "Low evidence"). Candidates are ranked by a fixed rule
 * (`byScoreThenTaxonomyOrder`), so the same evidence always gives the same answer.
 */
import type { CategoryVectors } from './category-vectors.ts';
import { indexPage, scoreAllCategories, tokenize, type Lexicon } from './lexicon.ts';
import { tradeNameScores } from './trade-names.ts';
import type { PageEvidence } from './page-evidence.ts';
import { schemaTypeHints } from './schema-types.ts';
import { UNCATEGORIZED_ID, tier1Of, type Taxonomy } from './taxonomy.ts';

/** Which kind of evidence gave the chosen family most of its score. */
export type DecidedBy = 'keywords' | 'schema.org' | 'embedding' | 'none';

/** How strongly the page supports the answer: set as span attributes so a trace shows it. */
export interface EvidenceStrength {
  /** The chosen family's total score, in keyword units. */
  score: number;
  /** Its lead over the runner-up family, in keyword units. */
  margin: number;
  runnerUp: string | null;
  /** The chosen family's keyword and schema.org evidence, and its embedding z-score (0 without a vector). */
  keywords: number;
  schema: number;
  embedZ: number;
  decidedBy: DecidedBy;
  /** The prose that was judged (see `measureProse`). */
  proseSentences: number;
  proseWords: number;
  /** True when the page was read as an article (its body and headline over the site's chrome). */
  article: boolean;
  /**
   * Whether the sentence embedding was computed: 'used'; 'not needed' when keywords and schema.org
   * types decided the category whatever it could say (`embeddingCannotChange`); 'unavailable' (no
   * model, a non-English page, a summary too short).
   */
  embedding: 'used' | 'not needed' | 'unavailable';
}

export interface CategoryChoice {
  /** Tier-2 id, or the tier-1 id when no child stands out. */
  iabId: string;
  tier1Id: string;
  /**
   * Why: 'evidence' when keywords, types or a clear embedding lead decided; 'nearest' when the page
   * has enough English prose but only the embedding's nearest category speaks for it; 'low-evidence'
   * for the Uncategorized fallback (too little text to judge).
   */
  basis: 'evidence' | 'nearest' | 'low-evidence';
  /** Best tier-1 candidates with their scores, best first (for a provider that confirms). */
  ranking: { id: string; score: number }[];
  strength: EvidenceStrength;
}

export interface ClassifyTuning {
  /** Weight of one standard deviation of embedding similarity above the mean, in keyword units. */
  embedWeight: number;
  /** Same, for siblings when choosing the tier-2. */
  embedWeightTier2: number;
  /** A schema.org type counts this many keyword units per unit of its weight. */
  schemaWeight: number;
  /** Below this much keyword+schema evidence, the embedding alone must be this far ahead (z) to decide. */
  minEvidence: number;
  minEmbedZ: number;
  /** The best child must score this much (keyword units) to be named. */
  minTier2Score: number;
}

export const DEFAULT_TUNING: ClassifyTuning = {
  embedWeight: 2.5,
  embedWeightTier2: 1.5,
  schemaWeight: 3,
  minEvidence: 2,
  minEmbedZ: 2.5,
  minTier2Score: 1.5,
};

/** Families the embedding may not pick on its own: they describe the page's state, not its topic. */
const NOT_BY_SIMILARITY = new Set(['IAB24', 'IAB25', 'IAB26']);

const ENGLISH_MARKERS = new Set(['the', 'and', 'of', 'to', 'for', 'with', 'our', 'your', 'you', 'we', 'is', 'are', 'in', 'on', 'at', 'from', 'a', 'about']);

/** True when the page is written in English (the sentence encoder and most of the lexicon are English-only). */
export function looksEnglish(page: PageEvidence): boolean {
  if (page.lang && page.lang !== 'en') {
    // Many English sites keep a template's lang="de"; trust the words over the attribute.
    return englishShare(page) > 0.12;
  }
  const share = englishShare(page);
  return share === null || share > 0.06;
}

function englishShare(page: PageEvidence): number {
  const words = tokenize(`${page.title} ${page.descriptions.join(' ')} ${page.visible.slice(0, 5_000)}`);
  if (words.length < 20) return 1;
  return words.filter((w) => ENGLISH_MARKERS.has(w)).length / words.length;
}

/**
 * The short text that stands for the whole page when embedded: what it says about itself first. For
 * an article: its headline, description and the start of its body, none of the site's navigation.
 */
export function pageSummaryText(page: PageEvidence): string {
  if (page.article) {
    const head = [page.article.headline, page.descriptions[0] ?? ''].filter((p) => p.trim() !== '').join('. ');
    return `${head}. ${page.article.body.slice(0, 700)}`.slice(0, 900).trim();
  }
  const parts = [page.title, page.descriptions[0] ?? '', page.h1.join('. '), page.subheadings.slice(0, 6).join('. '), page.nav.slice(0, 15).join(', ')];
  let text = parts.filter((p) => p.trim() !== '').join('. ');
  if (text.length < 200) text = `${text}. ${page.visible.slice(0, 600)}`;
  return text.slice(0, 900).trim();
}

/**
 * "Enough text to judge": at least MIN_PROSE_SENTENCES sentences of at least MIN_SENTENCE_WORDS
 * words each, mostly words (not digits, prices or symbols), MIN_PROSE_WORDS words in all. Below
 * that a page is too thin to name a topic from, and without keyword or schema.org evidence it is
 * IAB24 Uncategorized. Counted in the descriptions and the body (the article body for an article).
 */
export const MIN_PROSE_SENTENCES = 2;
export const MIN_SENTENCE_WORDS = 6;
export const MIN_PROSE_WORDS = 20;

export function measureProse(page: PageEvidence): { sentences: number; words: number } {
  const text = `${page.descriptions.join('. ')}. ${page.article?.body ?? page.visible}`.slice(0, 20_000);
  let sentences = 0;
  let words = 0;
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+|\s[|•·]\s/)) {
    const tokens = sentence.split(/\s+/).filter(Boolean);
    if (tokens.length < MIN_SENTENCE_WORDS) continue;
    const wordy = tokens.filter((t) => /^[\p{L}][\p{L}'’-]*[,;:.!?]?$/u.test(t)).length;
    if (wordy / tokens.length < 0.7) continue;
    sentences++;
    words += tokens.length;
  }
  return { sentences, words };
}

/** Below this many words, the embedded summary (`pageSummaryText`) is too thin for the embedding to decide alone. */
export const MIN_SUMMARY_WORDS = 12;

export function summaryWords(page: PageEvidence): number {
  return (pageSummaryText(page).match(/\p{L}+/gu) ?? []).length;
}

export function hasEnoughProse(prose: { sentences: number; words: number }): boolean {
  return prose.sentences >= MIN_PROSE_SENTENCES && prose.words >= MIN_PROSE_WORDS;
}

function zScores(values: readonly number[]): number[] {
  const mean = values.reduce((a, b) => a + b, 0) / (values.length || 1);
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length || 1)) || 1;
  return values.map((v) => (v - mean) / sd);
}

/** Scores are compared at this precision, so float noise never decides between two families. */
const SCORE_PRECISION = 1e6;
const rounded = (x: number): number => Math.round(x * SCORE_PRECISION) / SCORE_PRECISION;

/**
 * The fixed order of candidates: higher score first; equal scores (to 1e-6) in taxonomy order, so
 * the same evidence always gives the same answer whatever order it was gathered in.
 */
export function byScoreThenTaxonomyOrder(a: { score: number; order: number }, b: { score: number; order: number }): number {
  return rounded(b.score) - rounded(a.score) || a.order - b.order;
}

export interface ClassifierModel {
  taxonomy: Taxonomy;
  lexicon: Lexicon;
  vectors: CategoryVectors | null;
}

interface Ranked {
  id: string;
  order: number;
  keywords: number;
  schema: number;
  z: number;
  score: number;
}

interface PageScores {
  lex: Map<string, number>;
  schema: Map<string, number>;
  sim: Map<string, number>;
  families: Ranked[];
}

function schemaEvidence(page: PageEvidence, tuning: ClassifyTuning): Map<string, number> {
  const schema = new Map<string, number>();
  for (const hint of schemaTypeHints(page.schemaTypes, page.article !== null)) {
    for (const id of [hint.iabId, tier1Of(hint.iabId)]) schema.set(id, Math.max(schema.get(id) ?? 0, hint.weight * tuning.schemaWeight));
  }
  return schema;
}

/** News is what a news publisher does, not what its article is about: on an article page it comes after any family with evidence. */
const NEWS_FAMILY = 'IAB12';
function newsLast(ranked: Ranked[]): Ranked[] {
  const news = ranked.find((r) => r.id === NEWS_FAMILY);
  if (!news || !ranked.some((r) => r.id !== NEWS_FAMILY && r.score > 0)) return ranked;
  return [...ranked.filter((r) => r !== news && r.score > 0), news, ...ranked.filter((r) => r !== news && r.score <= 0)];
}

/** Every family's keyword, schema.org and embedding evidence, ranked by `byScoreThenTaxonomyOrder`. */
function scoreFamilies(page: PageEvidence, pageVector: Float32Array | null, model: ClassifierModel, tuning: ClassifyTuning): PageScores {
  const { taxonomy: tax } = model;
  const indexed = indexPage(page);
  const lex = scoreAllCategories(indexed, model.lexicon, tax);
  // A page in another language: the names its language gives the trade (trade-names.ts).
  if (page.lang && page.lang !== 'en' && !looksEnglish(page)) for (const [id, s] of tradeNameScores(indexed, page.lang)) lex.set(id, (lex.get(id) ?? 0) + s);
  const schema = schemaEvidence(page, tuning);
  const sim = new Map<string, number>();
  if (pageVector && model.vectors) {
    const sims = model.vectors.similarities(pageVector);
    model.vectors.ids.forEach((id, i) => sim.set(id, sims[i]!));
  }
  const families = tax.tier1.filter((t) => t.id !== UNCATEGORIZED_ID);
  const embedded = families.filter((t) => !NOT_BY_SIMILARITY.has(t.id));
  const familySim = embedded.map((t) => Math.max(sim.get(t.id) ?? 0, ...tax.childrenOf(t.id).map((c) => sim.get(c.id) ?? 0)));
  const familyZ = zScores(familySim);
  const z = new Map(sim.size > 0 ? embedded.map((t, i) => [t.id, familyZ[i]!]) : []);
  const ranked = families.map((t, order): Ranked => {
    const keywords = (lex.get(t.id) ?? 0) + tax.childrenOf(t.id).reduce((sum, c) => sum + (lex.get(c.id) ?? 0), 0);
    const s = schema.get(t.id) ?? 0;
    const zt = z.get(t.id) ?? 0;
    return { id: t.id, order, keywords, schema: s, z: zt, score: keywords + s + tuning.embedWeight * Math.max(0, zt) };
  });
  ranked.sort(byScoreThenTaxonomyOrder);
  return { lex, schema, sim, families: page.article ? newsLast(ranked) : ranked };
}

/** The best child of the chosen family, or the family itself when no child has evidence of its own. */
function chooseTier2(familyId: string, scores: PageScores, model: ClassifierModel, tuning: ClassifyTuning): string {
  const { lex, schema, sim } = scores;
  const children = model.taxonomy.childrenOf(familyId);
  const childSimZ = sim.size > 0 ? zScores(children.map((c) => sim.get(c.id) ?? 0)) : children.map(() => 0);
  const childScores = children
    .map((c, i) => ({ id: c.id, order: i, score: (lex.get(c.id) ?? 0) + (schema.get(c.id) ?? 0) + tuning.embedWeightTier2 * Math.max(0, childSimZ[i]!) }))
    .sort(byScoreThenTaxonomyOrder);
  const top = childScores[0];
  const hasOwnEvidence = top !== undefined && ((lex.get(top.id) ?? 0) > 0 || (schema.get(top.id) ?? 0) > 0);
  return top && hasOwnEvidence && top.score >= tuning.minTier2Score ? top.id : familyId;
}

function decidedBy(best: Ranked, tuning: ClassifyTuning): DecidedBy {
  const parts: [DecidedBy, number][] = [
    ['keywords', best.keywords],
    ['schema.org', best.schema],
    ['embedding', tuning.embedWeight * Math.max(0, best.z)],
  ];
  const [kind, value] = parts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return value > 0 ? kind : 'none';
}

function strengthOf(
  best: Ranked,
  runnerUp: Ranked | undefined,
  prose: { sentences: number; words: number },
  page: PageEvidence,
  tuning: ClassifyTuning,
): EvidenceStrength {
  const r2 = (x: number): number => Math.round(x * 100) / 100;
  return {
    score: r2(best.score),
    margin: r2(best.score - (runnerUp?.score ?? 0)),
    runnerUp: runnerUp?.id ?? null,
    keywords: r2(best.keywords),
    schema: r2(best.schema),
    embedZ: r2(best.z),
    decidedBy: decidedBy(best, tuning),
    proseSentences: prose.sentences,
    proseWords: prose.words,
    article: page.article !== null,
    embedding: 'unavailable',
  };
}

/**
 * True when no embedding of the page could change the answer, so it need not be computed (it is the
 * classifier's largest cost, ~70 ms of CPU a page). An embedding adds to a family at most
 * `embedWeight x` the largest z-score a value can have among the N families compared, sqrt(N - 1)
 * (population deviation), and to a child at most `embedWeightTier2 x sqrt(k - 1)` among k siblings;
 * it never lowers a score (only positive z counts). So the answer without it stands when
 * - the leading family's keyword and schema.org evidence is ahead of every other family's by more than
 *   that most (and on an article the leader is not News, which an embedding-scored family would pass), and
 * - among its children either none has evidence of its own (the family itself is the answer whatever
 *   the embedding says) or the best one has at least `minTier2Score` and leads the others by more
 *   than a child's most.
 * Then the leader also has far more than `minEvidence`, so the answer is on evidence either way.
 */
export function embeddingCannotChange(page: PageEvidence, model: ClassifierModel, tuning: ClassifyTuning = DEFAULT_TUNING): boolean {
  const scores = scoreFamilies(page, null, model, tuning);
  const [best, runnerUp] = scores.families;
  if (!best) return false;
  const compared = model.taxonomy.tier1.filter((t) => t.id !== UNCATEGORIZED_ID && !NOT_BY_SIMILARITY.has(t.id)).length;
  const familyMost = tuning.embedWeight * Math.sqrt(Math.max(0, compared - 1));
  if (best.score - (runnerUp?.score ?? 0) <= familyMost) return false;
  if (page.article && best.id === NEWS_FAMILY) return false;
  const children = model.taxonomy.childrenOf(best.id);
  const own = (id: string): number => (scores.lex.get(id) ?? 0) + (scores.schema.get(id) ?? 0);
  const ranked = children.map((c) => own(c.id)).sort((a, b) => b - a);
  if (!(ranked[0]! > 0)) return true;
  const childMost = tuning.embedWeightTier2 * Math.sqrt(Math.max(0, children.length - 1));
  return ranked[0]! >= tuning.minTier2Score && ranked[0]! - (ranked[1] ?? 0) > childMost;
}

/**
 * @param pageVector the embedding of `pageSummaryText(page)`, or null (no model, non-English page,
 *   or not needed: `embeddingCannotChange`).
 */
export function chooseCategory(
  page: PageEvidence,
  pageVector: Float32Array | null,
  model: ClassifierModel,
  tuning: ClassifyTuning = DEFAULT_TUNING,
): CategoryChoice {
  const scores = scoreFamilies(page, pageVector, model, tuning);
  const ranking = scores.families;
  const prose = measureProse(page);
  const publicRanking = ranking.slice(0, 6).map((r) => ({ id: r.id, score: Math.round(r.score * 100) / 100 }));
  const bestEvidence = Math.max(...ranking.map((r) => r.keywords + r.schema));
  const bestZ = Math.max(0, ...ranking.map((r) => r.z));
  // The embedding alone decides only on a summary it can judge (see MIN_SUMMARY_WORDS).
  const judgeable = summaryWords(page) >= MIN_SUMMARY_WORDS;
  const clear = bestEvidence >= tuning.minEvidence || (judgeable && bestZ >= tuning.minEmbedZ);
  // A page with a few sentences of English prose gets its nearest category even when the evidence is
  // weak: the embedding always ranks some family first. Only a page too thin to judge is Uncategorized.
  const nearest = !clear && pageVector !== null && hasEnoughProse(prose) && ranking[0]!.score > 0;
  const best = ranking[0]!;
  if (!clear && !nearest) {
    return {
      iabId: UNCATEGORIZED_ID,
      tier1Id: UNCATEGORIZED_ID,
      basis: 'low-evidence',
      ranking: publicRanking,
      strength: strengthOf(best, ranking[1], prose, page, tuning),
    };
  }
  const iabId = chooseTier2(best.id, scores, model, tuning);
  return {
    iabId,
    tier1Id: best.id,
    basis: clear ? 'evidence' : 'nearest',
    ranking: publicRanking,
    strength: strengthOf(best, ranking[1], prose, page, tuning),
  };
}
