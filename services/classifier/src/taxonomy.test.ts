import { describe, expect, it } from 'vitest';
import { iabTaxonomy, parseTaxonomyTsv, tier1Of } from './taxonomy.ts';

describe('IAB 1.0 taxonomy data', () => {
  const tax = iabTaxonomy();

  it('holds 26 tier-1 and 366 tier-2 categories with unique ids', () => {
    expect(tax.tier1).toHaveLength(26);
    expect(tax.all.filter((c) => c.tier === 2)).toHaveLength(366);
    expect(new Set(tax.all.map((c) => c.id)).size).toBe(392);
  });

  it('gives every tier-2 a tier-1 parent whose id prefixes its own', () => {
    for (const c of tax.all) {
      if (c.tier === 1) {
        expect(c.id).toMatch(/^IAB\d+$/);
        expect(c.parentId).toBe(c.id);
      } else {
        expect(c.id).toMatch(/^IAB\d+-\d+$/);
        expect(tax.byId.get(c.parentId)?.tier).toBe(1);
        expect(tier1Of(c.id)).toBe(c.parentId);
      }
    }
    expect(tax.tier1.map((c) => c.id)).toEqual(Array.from({ length: 26 }, (_, i) => `IAB${i + 1}`));
  });

  it('keeps the official names and spellings', () => {
    expect(tax.byId.get('IAB19-6')?.name).toBe('Cell Phones');
    expect(tax.byId.get('IAB8')?.name).toBe('Food & Drink');
    expect(tax.byId.get('IAB2-15')?.name).toBe('Mororcycles');
    expect(tax.byId.get('IAB5-1')?.name).toBe('7-12 Education');
    expect(tax.byId.get('IAB11')?.name).toBe("Law, Gov't & Politics");
    expect(tax.childrenOf('IAB24')).toEqual([]);
    expect(tax.childrenOf('IAB17')).toHaveLength(44);
  });

  it('rejects a file without the expected columns', () => {
    expect(() => parseTaxonomyTsv('id\tname\nIAB1\tArts')).toThrow(/iab_id/);
  });
});
