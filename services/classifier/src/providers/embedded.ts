/**
 * The classifier that runs in-process with no network: keyword and schema.org evidence plus the
 * Universal Sentence Encoder lite, compared with the category vectors committed in data/.
 */
import {
  chooseCategory,
  embeddingCannotChange,
  looksEnglish,
  pageSummaryText,
  DEFAULT_TUNING,
  type CategoryChoice,
  type ClassifierModel,
  type ClassifyTuning,
} from '../classify.ts';
import { loadCategoryVectors, type CategoryVectors } from '../category-vectors.ts';
import { loadSentenceEncoder, type TextEmbedder } from '../embed.ts';
import { buildLexicon } from '../lexicon.ts';
import type { PageEvidence } from '../page-evidence.ts';
import { iabTaxonomy } from '../taxonomy.ts';

export interface EmbeddedClassifier {
  classify(page: PageEvidence): Promise<CategoryChoice>;
}

export interface EmbeddedOptions {
  /**
   * Embed every page that can be embedded, even where keywords already decide (`embeddingCannotChange`):
   * for a provider that is offered the ranking, whose lower places the embedding still moves.
   */
  fullRanking?: boolean;
}

/**
 * @param embedder null runs on keywords and schema.org types alone (tests, or a model that failed to
 *   load is not an option in production: main.ts loads it before serving).
 */
export function createEmbeddedClassifier(
  embedder: TextEmbedder | null,
  vectors: CategoryVectors | null = embedder ? loadCategoryVectors() : null,
  tuning: ClassifyTuning = DEFAULT_TUNING,
  opts: EmbeddedOptions = {},
): EmbeddedClassifier {
  if (embedder && vectors && embedder.dims !== vectors.dims) throw new Error(`embedder has ${embedder.dims} dims, category vectors ${vectors.dims}`);
  if (embedder && vectors && embedder.model !== vectors.model) throw new Error(`category vectors were built with ${vectors.model}, not ${embedder.model}`);
  const model: ClassifierModel = { taxonomy: iabTaxonomy(), lexicon: buildLexicon(), vectors };
  return {
    async classify(page) {
      // The encoder is English-only: on other languages its similarities are noise, so keywords and types decide.
      const summary = pageSummaryText(page);
      if (!(embedder && vectors && summary.length >= 15 && looksEnglish(page))) return chooseCategory(page, null, model, tuning);
      // Where keywords and types decide whatever the embedding says, it is not computed (same answer, ~70 ms less).
      if (!opts.fullRanking && embeddingCannotChange(page, model, tuning)) {
        const choice = chooseCategory(page, null, model, tuning);
        return { ...choice, strength: { ...choice.strength, embedding: 'not needed' } };
      }
      const choice = chooseCategory(page, (await embedder.embed([summary]))[0] ?? null, model, tuning);
      return { ...choice, strength: { ...choice.strength, embedding: 'used' } };
    },
  };
}

/** Loads the sentence encoder and the category vectors; call once at start, before serving. */
export async function loadEmbeddedClassifier(opts: EmbeddedOptions = {}): Promise<EmbeddedClassifier> {
  return createEmbeddedClassifier(await loadSentenceEncoder(), undefined, DEFAULT_TUNING, opts);
}
