/**
 * The IAB Tech Lab Content Taxonomy 1.0 (26 tier-1, 366 tier-2), read once from the copy kept in
 * services/classifier/data. Official names are kept letter for letter, typos included ("Mororcycles"),
 * because clients match on them.
 */
import { readFileSync } from 'node:fs';

export interface IabCategory {
  id: string;
  tier: 1 | 2;
  name: string;
  /** The tier-1 id; equal to `id` for tier-1 categories. */
  parentId: string;
}

export interface Taxonomy {
  all: readonly IabCategory[];
  tier1: readonly IabCategory[];
  byId: ReadonlyMap<string, IabCategory>;
  childrenOf(tier1Id: string): readonly IabCategory[];
}

export const TAXONOMY_TSV_URL = new URL('../data/iab-content-taxonomy-1.0.tsv', import.meta.url);

export function parseTaxonomyTsv(tsv: string): Taxonomy {
  const lines = tsv.split(/\r?\n/).filter((l) => l.trim() !== '');
  const header = lines[0]?.split('\t') ?? [];
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`taxonomy TSV lacks column ${name}`);
    return i;
  };
  const [cId, cTier, cName, cParent] = [col('iab_id'), col('tier'), col('name'), col('tier1_id')];
  const all: IabCategory[] = lines.slice(1).map((line) => {
    const f = line.split('\t');
    const tier = Number(f[cTier]);
    if (tier !== 1 && tier !== 2) throw new Error(`bad tier in taxonomy line: ${line}`);
    return { id: f[cId]!, tier, name: f[cName]!, parentId: f[cParent]! };
  });
  const byId = new Map(all.map((c) => [c.id, c]));
  const children = new Map<string, IabCategory[]>();
  for (const c of all) {
    if (c.tier !== 2) continue;
    const list = children.get(c.parentId) ?? [];
    list.push(c);
    children.set(c.parentId, list);
  }
  return {
    all,
    tier1: all.filter((c) => c.tier === 1),
    byId,
    childrenOf: (id) => children.get(id) ?? [],
  };
}

let cached: Taxonomy | undefined;

/** The project's taxonomy, parsed on first use. */
export function iabTaxonomy(): Taxonomy {
  cached ??= parseTaxonomyTsv(readFileSync(TAXONOMY_TSV_URL, 'utf8'));
  return cached;
}

/** The tier-1 id of any IAB 1.0 id (`IAB19-6` -> `IAB19`). */
export const tier1Of = (id: string): string => id.split('-')[0]!;

/** Low-evidence answer: the taxonomy's own "Uncategorized" rather than a guess. */
export const UNCATEGORIZED_ID = 'IAB24';
