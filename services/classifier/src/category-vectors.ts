/**
 * Precomputed category embeddings (scripts/build-vectors.ts), committed in data/ so a start costs
 * a file read, not 392 model runs. Stored as int8 of the L2-normalized vector (x127), base64: the
 * rounding moves cosine similarities by about 0.001, far below the gaps the classifier acts on.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface CategoryVectorFile {
  model: string;
  dims: number;
  /** sha256 of the profile texts the vectors were built from, to detect a stale file. */
  profilesSha256: string;
  ids: string[];
  int8: string;
}

export interface CategoryVectors {
  model: string;
  dims: number;
  profilesSha256: string;
  ids: readonly string[];
  /** Cosine similarity of a normalized vector with every category, in `ids` order. */
  similarities(v: Float32Array): Float32Array;
}

export const CATEGORY_VECTORS_URL = new URL('../data/category-vectors.json', import.meta.url);

export function hashProfiles(profiles: readonly { id: string; text: string }[]): string {
  return createHash('sha256')
    .update(profiles.map((p) => `${p.id}\t${p.text}`).join('\n'))
    .digest('hex');
}

export function encodeCategoryVectors(model: string, profilesSha256: string, ids: string[], vectors: Float32Array[]): CategoryVectorFile {
  const dims = vectors[0]?.length ?? 0;
  const bytes = new Int8Array(ids.length * dims);
  vectors.forEach((v, row) => {
    for (let i = 0; i < dims; i++) bytes[row * dims + i] = Math.max(-127, Math.min(127, Math.round(v[i]! * 127)));
  });
  return { model, dims, profilesSha256, ids, int8: Buffer.from(bytes.buffer).toString('base64') };
}

export function decodeCategoryVectors(file: CategoryVectorFile): CategoryVectors {
  const buf = Buffer.from(file.int8, 'base64');
  const data = new Int8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  if (data.length !== file.ids.length * file.dims) throw new Error(`category vectors: ${data.length} values for ${file.ids.length} x ${file.dims}`);
  const { dims, ids } = file;
  return {
    model: file.model,
    dims,
    profilesSha256: file.profilesSha256,
    ids,
    similarities(v) {
      const out = new Float32Array(ids.length);
      for (let row = 0; row < ids.length; row++) {
        let dot = 0;
        const base = row * dims;
        for (let i = 0; i < dims; i++) dot += v[i]! * data[base + i]!;
        out[row] = dot / 127;
      }
      return out;
    },
  };
}

export function loadCategoryVectors(url: URL = CATEGORY_VECTORS_URL): CategoryVectors {
  return decodeCategoryVectors(JSON.parse(readFileSync(url, 'utf8')) as CategoryVectorFile);
}
