/**
 * The organisation facts a brand analysis wants from JSON-LD: name, logo, sameAs profiles. Pages
 * often carry invalid JSON, several blocks, `@graph` containers and nested publishers; all are read,
 * bounded by the snapshot's own limits.
 */
import type { Snapshot } from '../contracts/index.ts';

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

/** Nodes that carry an `@id`, so `{"@id": "https://site/#logo"}` references (Yoast, Rank Math) resolve. */
type IdIndex = Map<string, Record<string, Json>>;

function indexIds(node: Json, index: IdIndex, depth = 0): void {
  if (!node || typeof node !== 'object' || depth > 8 || index.size > MAX_NODES) return;
  if (Array.isArray(node)) return node.forEach((n) => indexIds(n, index, depth + 1));
  const o = node as Record<string, Json>;
  if (typeof o['@id'] === 'string' && (o['url'] !== undefined || o['contentUrl'] !== undefined)) index.set(o['@id'], o);
  for (const v of Object.values(o)) if (v && typeof v === 'object') indexIds(v, index, depth + 1);
}

const IMAGE_FILE = /\.(png|jpe?g|gif|svg|webp|avif|ico)(\?|#|$)/i;

/**
 * `logo` as a URL string, an ImageObject (url / contentUrl), a reference to an ImageObject elsewhere
 * in the graph (`@id`), an `@id` that is itself an image file, or a list of those.
 */
function logoUrls(value: Json, ids: IdIndex): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((v) => logoUrls(v, ids));
  if (value && typeof value === 'object') {
    const o = value as Record<string, Json>;
    const direct = o['url'] ?? o['contentUrl'];
    if (direct !== undefined) return strings(direct);
    const id = o['@id'];
    if (typeof id !== 'string') return [];
    const target = ids.get(id);
    if (target && target !== o) return strings(target['url'] ?? target['contentUrl']);
    return IMAGE_FILE.test(id) ? [id] : [];
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
        facts.logos.push(...logoUrls(o['logo'], ids));
        facts.sameAs.push(...strings(o['sameAs']));
      }
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'sameAs' && v && typeof v === 'object') visit(v, depth + 1);
  };
  const parsed = snapshot.jsonLd.map(parseLoose);
  const ids: IdIndex = new Map();
  for (const doc of parsed) indexIds(doc, ids);
  for (const doc of parsed) visit(doc, 0);
  return facts;
}
