/**
 * The organisation facts a brand analysis wants from JSON-LD: name, logo, sameAs profiles. Pages
 * often carry invalid JSON, several blocks, `@graph` containers and nested publishers; all are read,
 * bounded by the snapshot's own limits.
 */
import type { Snapshot } from '@enrich/shared/contracts';

export type OrganizationFacts = { names: string[]; logos: string[]; sameAs: string[] };

const ORG_TYPES = /organization|corporation|company|business|store|brand|ngo|newsmedia|localbusiness|restaurant|website|airline|school|university|hotel|shop/i;
const MAX_NODES = 5000;

type Json = unknown;

function parseLoose(text: string): Json {
  try {
    return JSON.parse(text);
  } catch {
    // Common breakage: trailing commas and raw newlines inside strings; one repair attempt.
    try {
      return JSON.parse(text.replace(/,\s*([}\]])/g, '$1').replace(/[\r\n]+/g, ' '));
    } catch {
      return null;
    }
  }
}

function typesOf(node: Record<string, Json>): string[] {
  const t = node['@type'];
  return (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string');
}

function strings(value: Json): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  return [];
}

/** `logo` as a URL string, an ImageObject (url / contentUrl / @id), or a list of those. */
function logoUrls(value: Json): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(logoUrls);
  if (value && typeof value === 'object') {
    const o = value as Record<string, Json>;
    return strings(o['url'] ?? o['contentUrl'] ?? (typeof o['@id'] === 'string' && /^https?:|^\//.test(o['@id']) ? o['@id'] : null));
  }
  return [];
}

export function organizationFacts(snapshot: Pick<Snapshot, 'jsonLd'>): OrganizationFacts {
  const facts: OrganizationFacts = { names: [], logos: [], sameAs: [] };
  let visited = 0;
  const visit = (node: Json, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 8 || visited++ > MAX_NODES) return;
    if (Array.isArray(node)) {
      node.forEach((n) => visit(n, depth + 1));
      return;
    }
    const o = node as Record<string, Json>;
    const types = typesOf(o);
    if (types.some((t) => ORG_TYPES.test(t))) {
      const isSite = types.every((t) => /website/i.test(t));
      facts.names.push(...strings(o['name']).map((n) => n.trim()).filter(Boolean));
      if (!isSite) {
        facts.logos.push(...logoUrls(o['logo']));
        facts.sameAs.push(...strings(o['sameAs']));
      }
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'sameAs' && v && typeof v === 'object') visit(v, depth + 1);
  };
  for (const block of snapshot.jsonLd) visit(parseLoose(block), 0);
  return facts;
}
