/**
 * An OpenAI-compatible chat model (POST {base}/chat/completions) as a category provider. In
 * `confirm` mode it may only pick among the embedded classifier's best families (it confirms or
 * reorders, it cannot wander); in `replace` mode it may pick any id of the taxonomy. Its answer must
 * be a taxonomy id; anything else (HTTP error, timeout, prose, an invented id) returns null.
 */
import type { PageEvidence } from '../page-evidence.ts';
import { iabTaxonomy, UNCATEGORIZED_ID, type Taxonomy } from '../taxonomy.ts';
import type { CategoryProvider, ProviderInput } from './provider.ts';

export interface OpenAiProviderOptions {
  /** Base URL up to the version, e.g. `http://127.0.0.1:8080/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  mode: 'confirm' | 'replace';
  /** How many of the embedded classifier's best families `confirm` mode offers. */
  candidateFamilies?: number;
  fetch?: typeof fetch;
}

export class ProviderError extends Error {
  override name = 'ProviderError';
}

const PAGE_TEXT_CHARS = 1_500;

function pageDigest(page: PageEvidence): string {
  return [
    `URL: ${page.url}`,
    `Title: ${page.title}`,
    page.descriptions[0] ? `Description: ${page.descriptions[0]}` : '',
    page.h1.length ? `Headings: ${[...page.h1, ...page.subheadings.slice(0, 8)].join(' | ')}` : '',
    page.nav.length ? `Navigation: ${page.nav.slice(0, 25).join(' | ')}` : '',
    page.schemaTypes.length ? `schema.org types: ${page.schemaTypes.join(', ')}` : '',
    `Text: ${page.visible.slice(0, PAGE_TEXT_CHARS)}`,
  ]
    .filter(Boolean)
    .join('\n');
}

function allowedIds(input: ProviderInput, opts: OpenAiProviderOptions, tax: Taxonomy): string[] {
  const families =
    opts.mode === 'replace'
      ? tax.tier1.map((t) => t.id)
      : [...new Set([input.embedded.tier1Id, ...input.embedded.ranking.map((r) => r.id)])]
          .filter((id) => id !== UNCATEGORIZED_ID)
          .slice(0, opts.candidateFamilies ?? 5);
  return families.flatMap((f) => [f, ...tax.childrenOf(f).map((c) => c.id)]);
}

export function buildMessages(input: ProviderInput, ids: readonly string[], tax: Taxonomy = iabTaxonomy()): { role: 'system' | 'user'; content: string }[] {
  const lines = ids.map((id) => {
    const c = tax.byId.get(id)!;
    return c.tier === 1 ? `${id}\t${c.name}` : `${id}\t${tax.byId.get(c.parentId)!.name} > ${c.name}`;
  });
  return [
    {
      role: 'system',
      content:
        'You classify websites into the IAB Content Taxonomy 1.0 by what the site is or offers. ' +
        'Choose exactly one id from the list: a tier-2 id when one clearly fits, else its tier-1 id. ' +
        'Reply with JSON only, like {"iab_id":"IAB8-9"}.',
    },
    { role: 'user', content: `Allowed categories:\n${lines.join('\n')}\n\nThe site's page:\n${pageDigest(input.page)}` },
  ];
}

/** The id in a model's reply: JSON `{"iab_id": ...}` (possibly in a code fence), else a lone id in the text. */
export function parseReplyId(content: string): string | null {
  const unfenced = content.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '').trim();
  try {
    const parsed = JSON.parse(unfenced) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as Record<string, unknown>)['iab_id'] === 'string') {
      return ((parsed as Record<string, unknown>)['iab_id'] as string).trim().toUpperCase();
    }
  } catch {
    // Not JSON: models sometimes answer in prose; accept it only if it names exactly one id.
  }
  const ids = [...new Set(unfenced.toUpperCase().match(/\bIAB\d+(?:-\d+)?\b/g) ?? [])];
  return ids.length === 1 ? ids[0]! : null;
}

export function createOpenAiProvider(opts: OpenAiProviderOptions, tax: Taxonomy = iabTaxonomy()): CategoryProvider {
  const doFetch = opts.fetch ?? fetch;
  const endpoint = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    name: `openai:${opts.model}`,
    async choose(input, signal) {
      const ids = allowedIds(input, opts, tax);
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const res = await doFetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}) },
        body: JSON.stringify({ model: opts.model, temperature: 0, max_tokens: 30, messages: buildMessages(input, ids, tax) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      if (!res.ok) {
        await res.body?.cancel();
        throw new ProviderError(`HTTP ${res.status} from ${endpoint}`);
      }
      const body = (await res.json().catch(() => null)) as { choices?: { message?: { content?: unknown } }[] } | null;
      const content = body?.choices?.[0]?.message?.content;
      if (typeof content !== 'string') throw new ProviderError('reply has no choices[0].message.content');
      const id = parseReplyId(content);
      if (!id || !ids.includes(id)) throw new ProviderError(`reply names no allowed category: ${content.slice(0, 100)}`);
      return id;
    },
  };
}
