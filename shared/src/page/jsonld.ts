/**
 * The one JSON-LD reader of the tree. `parseJsonLd` turns a raw `<script type="application/ld+json">`
 * block into JSON; the analyzers interpret the nodes (organisations, addresses, types) themselves.
 *
 * Tolerance, exactly (each case is tested in jsonld.test.ts):
 *  1. an HTML comment wrapper (`<!-- ... -->`) or a CDATA wrapper around the whole block is dropped,
 *     bare (`<![CDATA[ ... ]]>`, as MediaWiki writes it on every Wikipedia article) or behind `//` or
 *     inside `/* *\/` (`//<![CDATA[ ... //]]>`), and surrounding whitespace trimmed;
 *  2. a block that is still not valid JSON is repaired once: every run of control characters
 *     (U+0000-U+001F: raw newlines and tabs inside strings) becomes one space, and trailing commas
 *     before `}` or `]` are dropped (the repair is textual, so ",}" inside a string is dropped too);
 *  3. if that fails, objects written one after another without a comma (`{...} {...}`) are read as
 *     an array of them;
 *  4. anything else is unreadable: `undefined`, and the caller skips the block.
 * A top-level array or an `@graph` container is returned as written; `jsonLdTypes` and the callers'
 * walks descend into both. `scanJsonLdStrings` reads string values of one key without parsing, for
 * callers that want them even from blocks no repair makes valid.
 */
import type { Snapshot } from '../contracts/index.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** Parses one JSON-LD block with the tolerance above; undefined when it stays unreadable. */
export function parseJsonLd(raw: string): Json | undefined {
  const cleaned = raw
    .replace(/^\s*<!--|-->\s*$/g, '')
    .replace(/^\s*(?:\/\/|\/\*)?\s*<!\[CDATA\[\s*(?:\*\/)?|(?:\/\/|\/\*)?\s*\]\]>\s*(?:\*\/)?\s*$/g, '')
    .trim();
  const repaired = cleaned.replace(/[\u0000-\u001f]+/g, ' ').replace(/,\s*([}\]])/g, '$1');
  for (const text of [cleaned, repaired, `[${repaired.replace(/}\s*{/g, '},{')}]`]) {
    try {
      return JSON.parse(text) as Json;
    } catch {
      // try the next repair
    }
  }
  return undefined;
}

/** Every block parsed, unreadable ones left out, in page order. */
export function parseJsonLdBlocks(blocks: readonly string[]): Json[] {
  return blocks.map(parseJsonLd).filter((doc): doc is Json => doc !== undefined);
}

export const isJsonObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A node's `@type` values that are strings (one or a list), as written. */
export function jsonLdTypes(node: JsonObject): string[] {
  const t = node['@type'];
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

export interface ScanOptions {
  /** Values whose raw (still escaped) text is shorter are skipped. */
  minLength: number;
  maxLength: number;
  /** Stop after this many values across all blocks. */
  limit: number;
  /** Only the first `scanChars` characters of each block are scanned. */
  scanChars?: number;
}

/**
 * The string values of `"key": "..."` pairs in page order, found by a scan of the raw text rather than
 * a parse, so even blocks that stay unreadable give them; JSON escapes are decoded where valid.
 */
export function scanJsonLdStrings(blocks: readonly string[], key: string, opts: ScanOptions): string[] {
  const out: string[] = [];
  const pair = new RegExp(`"${key}"\\s*:\\s*"((?:[^"\\\\]|\\\\.){${opts.minLength},${opts.maxLength}})"`, 'g');
  for (const block of blocks) {
    for (const m of block.slice(0, opts.scanChars ?? block.length).matchAll(pair)) {
      out.push(unescapeJsonString(m[1]!));
      if (out.length >= opts.limit) return out;
    }
  }
  return out;
}

function unescapeJsonString(body: string): string {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return body;
  }
}

/** The organisation facts a brand analysis wants: names, logos and sameAs profiles of organisation nodes. */
export type OrganizationFacts = { names: string[]; logos: string[]; sameAs: string[] };

const ORG_TYPES = /organization|corporation|company|business|store|brand|ngo|newsmedia|localbusiness|restaurant|website|airline|school|university|hotel|shop/i;
const MAX_NODES = 5000;

function strings(value: Json | undefined): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  return [];
}

/** Nodes that carry an `@id`, so `{"@id": "https://site/#logo"}` references (Yoast, Rank Math) resolve. */
type IdIndex = Map<string, JsonObject>;

function indexIds(node: Json, index: IdIndex, depth = 0): void {
  if (!node || typeof node !== 'object' || depth > 8 || index.size > MAX_NODES) return;
  if (Array.isArray(node)) {
    for (const n of node) indexIds(n, index, depth + 1);
    return;
  }
  const o = node as JsonObject;
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
    const o = value as JsonObject;
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
    const o = node as JsonObject;
    const types = jsonLdTypes(o);
    if (types.some((t) => ORG_TYPES.test(t))) {
      const isSite = types.every((t) => /website/i.test(t));
      facts.names.push(
        ...strings(o['name'])
          .map((n) => n.trim())
          .filter(Boolean),
      );
      if (!isSite) {
        facts.logos.push(...logoUrls(o['logo'], ids));
        facts.sameAs.push(...strings(o['sameAs']));
      }
    }
    for (const [k, v] of Object.entries(o)) if (k !== 'sameAs' && v && typeof v === 'object') visit(v, depth + 1);
  };
  const parsed = parseJsonLdBlocks(snapshot.jsonLd);
  const ids: IdIndex = new Map();
  for (const doc of parsed) indexIds(doc, ids);
  for (const doc of parsed) visit(doc, 0);
  return facts;
}
