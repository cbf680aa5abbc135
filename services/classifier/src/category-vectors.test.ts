import { describe, expect, it } from 'vitest';
import { allCategoryProfiles } from './category-profiles.ts';
import { decodeCategoryVectors, encodeCategoryVectors, hashProfiles, loadCategoryVectors } from './category-vectors.ts';
import { normalize, SENTENCE_ENCODER_MODEL } from './embed.ts';
import { iabTaxonomy } from './taxonomy.ts';

describe('committed category vectors', () => {
  const vectors = loadCategoryVectors();

  it("cover every taxonomy id, in taxonomy order, with the encoder's dimensions", () => {
    expect(vectors.ids).toEqual(iabTaxonomy().all.map((c) => c.id));
    expect(vectors.dims).toBe(512);
    expect(vectors.model).toBe(SENTENCE_ENCODER_MODEL);
  });

  it('were built from the current category profiles (else run scripts/build-vectors.ts)', () => {
    expect(vectors.profilesSha256).toBe(hashProfiles(allCategoryProfiles()));
  });

  it('are unit vectors: each category is most similar to itself', () => {
    const file = encodeCategoryVectors('m', 'h', ['a', 'b'], [normalize([3, 4, 0]), normalize([0, 1, 1])]);
    const decoded = decodeCategoryVectors(file);
    const sims = decoded.similarities(normalize([3, 4, 0]));
    expect(sims[0]).toBeCloseTo(1, 2);
    expect(sims[1]).toBeCloseTo(0.8 / Math.SQRT2, 2);
  });
});
