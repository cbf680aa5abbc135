/**
 * Embeds every category profile and writes data/category-vectors.json. Run after changing the
 * taxonomy data, the lexicon or the profile text:  node services/classifier/scripts/build-vectors.ts
 */
import { writeFileSync } from 'node:fs';
import { allCategoryProfiles } from '../src/category-profiles.ts';
import { CATEGORY_VECTORS_URL, encodeCategoryVectors, hashProfiles } from '../src/category-vectors.ts';
import { loadSentenceEncoder } from '../src/embed.ts';

const profiles = allCategoryProfiles();
const encoder = await loadSentenceEncoder();
const vectors: Float32Array[] = [];
const BATCH = 16;
for (let i = 0; i < profiles.length; i += BATCH) {
  vectors.push(...(await encoder.embed(profiles.slice(i, i + BATCH).map((p) => p.text))));
}
const file = encodeCategoryVectors(
  encoder.model,
  hashProfiles(profiles),
  profiles.map((p) => p.id),
  vectors,
);
writeFileSync(CATEGORY_VECTORS_URL, `${JSON.stringify(file)}\n`);
console.log(`wrote ${profiles.length} x ${file.dims} vectors to ${CATEGORY_VECTORS_URL.pathname}`);
