/**
 * The classifier service's core: snapshot in, `Classification` out. Builds the page evidence once,
 * asks the embedded classifier, lets a configured provider replace or confirm the answer, and writes
 * the description.
 */
import { ClassificationSchema, type Classification, type Snapshot } from '@enrich/shared/contracts';
import { trace } from '@enrich/shared/telemetry';
import type { CategoryChoice } from './classify.ts';
import { describeSite } from './describe.ts';
import { gatherPageEvidence } from './page-evidence.ts';
import type { EmbeddedClassifier } from './providers/embedded.ts';
import type { CategoryProvider } from './providers/provider.ts';
import { iabTaxonomy, tier1Of, UNCATEGORIZED_ID } from './taxonomy.ts';

export interface ClassifierOptions {
  embedded: EmbeddedClassifier;
  /** Optional second opinion (providers/openai.ts); off unless configured. */
  provider?: CategoryProvider | null;
  /** Told when a provider fails and the embedded answer is used instead. */
  onProviderFailure?: (provider: string, reason: string) => void;
}

export interface Classifier {
  classify(snapshot: Snapshot, url: string, signal?: AbortSignal): Promise<Classification>;
}

/**
 * Puts the strength of the evidence on the active span (the `analyze.classify process` span when
 * served), so a trace shows why a page got its category: the basis, which evidence decided, the
 * score and its margin over the runner-up, and how much prose there was to judge.
 */
export function recordEvidence(choice: CategoryChoice, byProvider: boolean): void {
  const span = trace.getActiveSpan();
  if (!span) return;
  const s = choice.strength;
  span.setAttributes({
    'enrich.classify.iab_id': choice.iabId,
    'enrich.classify.basis': byProvider ? 'provider' : choice.basis,
    'enrich.classify.decided_by': s.decidedBy,
    'enrich.classify.score': s.score,
    'enrich.classify.margin': s.margin,
    'enrich.classify.runner_up': s.runnerUp ?? '',
    'enrich.classify.keyword_evidence': s.keywords,
    'enrich.classify.schema_evidence': s.schema,
    'enrich.classify.embed_z': s.embedZ,
    'enrich.classify.embedding': s.embedding,
    'enrich.classify.prose_sentences': s.proseSentences,
    'enrich.classify.prose_words': s.proseWords,
    'enrich.classify.article': s.article,
  });
}

export function createClassifier(opts: ClassifierOptions): Classifier {
  const tax = iabTaxonomy();
  return {
    async classify(snapshot, url, signal) {
      const page = gatherPageEvidence(snapshot, url);
      const embedded = await opts.embedded.classify(page);
      let choice: CategoryChoice = embedded;
      if (opts.provider) {
        try {
          const id = await opts.provider.choose({ page, embedded }, signal);
          if (id && tax.byId.has(id)) choice = { ...embedded, iabId: id, tier1Id: tier1Of(id), basis: 'evidence' };
          else opts.onProviderFailure?.(opts.provider.name, 'no usable answer');
        } catch (err) {
          opts.onProviderFailure?.(opts.provider.name, err instanceof Error ? err.message : String(err));
        }
      }
      recordEvidence(choice, choice !== embedded);
      const cat = tax.byId.get(choice.iabId)!;
      const parent = tax.byId.get(cat.parentId)!;
      const subcategory = cat.tier === 2 ? cat.name : '';
      return ClassificationSchema.parse({
        url,
        iab_id: cat.id,
        iab_parent_id: parent.id,
        category: parent.name,
        subcategory,
        description: describeSite(page, { category: parent.name, subcategory, lowEvidence: choice.iabId === UNCATEGORIZED_ID }),
      });
    },
  };
}
