/**
 * The text each category is embedded from: its official name, its tier-1 name, and its best
 * keywords, so "Dining Out" lands near "restaurant menu reservations" rather than near "outings".
 */
import { LEXICON } from './lexicon-data.ts';
import { iabTaxonomy, type Taxonomy } from './taxonomy.ts';

const KEYWORDS_PER_PROFILE = 14;

function firstKeywords(id: string, n: number): string[] {
  return (LEXICON[id] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .slice(0, n);
}

export function categoryProfileText(id: string, tax: Taxonomy = iabTaxonomy()): string {
  const c = tax.byId.get(id);
  if (!c) throw new Error(`unknown IAB id ${id}`);
  if (c.tier === 1) {
    const children = tax
      .childrenOf(id)
      .map((k) => k.name)
      .slice(0, 20);
    return [c.name, ...firstKeywords(id, KEYWORDS_PER_PROFILE), ...children].join(', ');
  }
  const parent = tax.byId.get(c.parentId)!;
  return `${c.name} (${parent.name}): ${firstKeywords(id, KEYWORDS_PER_PROFILE).join(', ')}`.replace(/: $/, '');
}

/** Profiles in taxonomy order, the order of the committed vectors. */
export function allCategoryProfiles(tax: Taxonomy = iabTaxonomy()): { id: string; text: string }[] {
  return tax.all.map((c) => ({ id: c.id, text: categoryProfileText(c.id, tax) }));
}
