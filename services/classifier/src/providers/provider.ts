/**
 * A second opinion on the category. The embedded classifier always runs first; a provider (an
 * OpenAI-compatible chat model, when configured) may then replace or confirm its answer. Any failure
 * of a provider (HTTP error, timeout, unparseable reply, an id outside the taxonomy) yields null and
 * the embedded answer stands.
 */
import type { CategoryChoice } from '../classify.ts';
import type { PageEvidence } from '../page-evidence.ts';

export interface ProviderInput {
  page: PageEvidence;
  /** The embedded classifier's answer and its ranking of tier-1 candidates. */
  embedded: CategoryChoice;
}

export interface CategoryProvider {
  readonly name: string;
  /** A taxonomy id (tier-1 or tier-2), or null when the provider has no trustworthy answer. */
  choose(input: ProviderInput, signal?: AbortSignal): Promise<string | null>;
}
