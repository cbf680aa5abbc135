/**
 * Chooses the IAB category from three kinds of evidence a page gives about itself:
 *   keywords (lexicon.ts) in title, descriptions, headings, navigation, host and body;
 *   declared schema.org types (schema-types.ts);
 *   semantic similarity of the page's own summary to each category (sentence embeddings).
 * Tier-1 first, over all families; tier-2 only among the chosen family's children, and only when
 * one child stands out. Pages that give too little evidence get IAB24 "Uncategorized" rather than
 * a guess (see README, "Low evidence").
 */
import type { CategoryVectors } from './category-vectors.ts';
import { indexPage, scoreAllCategories, tokenize, type Lexicon } from './lexicon.ts';
import type { PageEvidence } from './page-evidence.ts';
import { schemaTypeHints } from './schema-types.ts';
import { UNCATEGORIZED_ID, tier1Of, type Taxonomy } from './taxonomy.ts';

export interface CategoryChoice {
  /** Tier-2 id, or the tier-1 id when no child stands out. */
  iabId: string;
  tier1Id: string;
  /** Why: 'evidence' when chosen on the scores, 'low-evidence' for the Uncategorized fallback. */
  basis: 'evidence' | 'low-evidence';
  /** Best tier-1 candidates with their scores, best first (for a provider that confirms). */
  ranking: { id: string; score: number }[];
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

/** The short text that stands for the whole page when embedded: what it says about itself first. */
export function pageSummaryText(page: PageEvidence): string {
  const parts = [page.title, page.descriptions[0] ?? '', page.h1.join('. '), page.subheadings.slice(0, 6).join('. '), page.nav.slice(0, 15).join(', ')];
  let text = parts.filter((p) => p.trim() !== '').join('. ');
  if (text.length < 200) text = `${text}. ${page.visible.slice(0, 600)}`;
  return text.slice(0, 900).trim();
}

function zScores(values: readonly number[]): number[] {
  const mean = values.reduce((a, b) => a + b, 0) / (values.length || 1);
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length || 1)) || 1;
  return values.map((v) => (v - mean) / sd);
}

export interface ClassifierModel {
  taxonomy: Taxonomy;
  lexicon: Lexicon;
  vectors: CategoryVectors | null;
}

/**
 * @param pageVector the embedding of `pageSummaryText(page)`, or null (no model, non-English page).
 */
export function chooseCategory(page: PageEvidence, pageVector: Float32Array | null, model: ClassifierModel, tuning: ClassifyTuning = DEFAULT_TUNING): CategoryChoice {
  const { taxonomy: tax } = model;
  const indexed = indexPage(page);
  const lex = scoreAllCategories(indexed, model.lexicon, tax);

  const schema = new Map<string, number>();
  for (const hint of schemaTypeHints(page.schemaTypes)) {
    for (const id of new Set([hint.iabId, tier1Of(hint.iabId)])) schema.set(id, Math.max(schema.get(id) ?? 0, hint.weight * tuning.schemaWeight));
  }

  const sim = new Map<string, number>();
  if (pageVector && model.vectors) {
    const sims = model.vectors.similarities(pageVector);
    model.vectors.ids.forEach((id, i) => sim.set(id, sims[i]!));
  }

  const families = tax.tier1.filter((t) => t.id !== UNCATEGORIZED_ID);
  const evidence = families.map((t) => {
    const children = tax.childrenOf(t.id);
    const keywordScore = (lex.get(t.id) ?? 0) + children.reduce((sum, c) => sum + (lex.get(c.id) ?? 0), 0);
    return keywordScore + (schema.get(t.id) ?? 0);
  });
  const embedded = families.filter((t) => !NOT_BY_SIMILARITY.has(t.id));
  const familySim = embedded.map((t) => Math.max(sim.get(t.id) ?? 0, ...tax.childrenOf(t.id).map((c) => sim.get(c.id) ?? 0)));
  const z = new Map(sim.size > 0 ? embedded.map((t, i) => [t.id, zScores(familySim)[i]!]) : []);

  const ranking = families
    .map((t, i) => ({ id: t.id, evidence: evidence[i]!, z: z.get(t.id) ?? 0 }))
    .map((r) => ({ ...r, score: r.evidence + tuning.embedWeight * Math.max(0, r.z) }))
    .sort((a, b) => b.score - a.score);

  const best = ranking[0]!;
  const bestEvidence = Math.max(...ranking.map((r) => r.evidence));
  const bestZ = Math.max(0, ...ranking.map((r) => r.z));
  const publicRanking = ranking.slice(0, 6).map((r) => ({ id: r.id, score: Math.round(r.score * 100) / 100 }));
  if (bestEvidence < tuning.minEvidence && bestZ < tuning.minEmbedZ) {
    return { iabId: UNCATEGORIZED_ID, tier1Id: UNCATEGORIZED_ID, basis: 'low-evidence', ranking: publicRanking };
  }

  const children = tax.childrenOf(best.id);
  const childSimZ = sim.size > 0 ? zScores(children.map((c) => sim.get(c.id) ?? 0)) : children.map(() => 0);
  const childScores = children
    .map((c, i) => ({ id: c.id, score: (lex.get(c.id) ?? 0) + (schema.get(c.id) ?? 0) + tuning.embedWeightTier2 * Math.max(0, childSimZ[i]!) }))
    .sort((a, b) => b.score - a.score);
  const top = childScores[0];
  const hasOwnEvidence = top !== undefined && ((lex.get(top.id) ?? 0) > 0 || (schema.get(top.id) ?? 0) > 0);
  const iabId = top && hasOwnEvidence && top.score >= tuning.minTier2Score ? top.id : best.id;
  return { iabId, tier1Id: best.id, basis: 'evidence', ranking: publicRanking };
}
