/**
 * The classifier that runs in-process with no network: keyword and schema.org evidence plus the
 * Universal Sentence Encoder lite, compared with the category vectors committed in data/.
 */
import { chooseCategory, looksEnglish, pageSummaryText, DEFAULT_TUNING, type CategoryChoice, type ClassifierModel, type ClassifyTuning } from '../classify.ts';
import { loadCategoryVectors, type CategoryVectors } from '../category-vectors.ts';
import { loadSentenceEncoder, type TextEmbedder } from '../embed.ts';
import { buildLexicon } from '../lexicon.ts';
import type { PageEvidence } from '../page-evidence.ts';
import { iabTaxonomy } from '../taxonomy.ts';

export interface EmbeddedClassifier {
  classify(page: PageEvidence): Promise<CategoryChoice>;
}

/**
 * @param embedder null runs on keywords and schema.org types alone (tests, or a model that failed to
 *   load is not an option in production: main.ts loads it before serving).
 */
export function createEmbeddedClassifier(
  embedder: TextEmbedder | null,
  vectors: CategoryVectors | null = embedder ? loadCategoryVectors() : null,
  tuning: ClassifyTuning = DEFAULT_TUNING,
): EmbeddedClassifier {
  if (embedder && vectors && embedder.dims !== vectors.dims) throw new Error(`embedder has ${embedder.dims} dims, category vectors ${vectors.dims}`);
  if (embedder && vectors && embedder.model !== vectors.model) throw new Error(`category vectors were built with ${vectors.model}, not ${embedder.model}`);
  const model: ClassifierModel = { taxonomy: iabTaxonomy(), lexicon: buildLexicon(), vectors };
  return {
    async classify(page) {
      // The encoder is English-only: on other languages its similarities are noise, so keywords and types decide.
      const summary = pageSummaryText(page);
      const vector = embedder && vectors && summary.length >= 15 && looksEnglish(page) ? ((await embedder.embed([summary]))[0] ?? null) : null;
      return chooseCategory(page, vector, model, tuning);
    },
  };
}

/** Loads the sentence encoder and the category vectors; call once at start, before serving. */
export async function loadEmbeddedClassifier(): Promise<EmbeddedClassifier> {
  return createEmbeddedClassifier(await loadSentenceEncoder());
}
