/**
 * API key records, reused by this instance for KEY_CACHE_MS after the store gave them, so a client
 * sending many requests (refused or not) costs one key read per interval instead of two reads each
 * (hash index, then record). Lookups of one hash that miss together share one read.
 *
 * What may be stale, for at most maxAgeMs: the key's rate limit and whether it was revoked. Nothing
 * that costs money is: every request that does work reserves its credits in the store, and the
 * reservation reads the current record (an exhausted, revoked or deleted key is refused there with
 * the same answers as here). So for up to maxAgeMs a key revoked on another instance can still get
 * free refusals (400, 429) instead of 401, and a new rate limit takes that long to apply everywhere.
 * Unknown keys are not remembered: a key created a moment ago works at once.
 */
import type { ApiKeyRecord } from '../store/port.ts';

export interface KeyDirectory {
  findKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
}

/** Keys remembered at most; beyond it the longest-held goes first (a flood of valid keys stays bounded). */
const MAX_ENTRIES = 10_000;

export class KeyCache implements KeyDirectory {
  readonly #store: KeyDirectory;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { record: ApiKeyRecord; at: number }>();
  readonly #inflight = new Map<string, Promise<ApiKeyRecord | null>>();

  constructor(store: KeyDirectory, opts: { maxAgeMs: number; now?: () => number }) {
    this.#store = store;
    this.#maxAgeMs = opts.maxAgeMs;
    this.#now = opts.now ?? Date.now;
  }

  findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    if (this.#maxAgeMs <= 0) return this.#store.findKeyByHash(hash);
    const held = this.#entries.get(hash);
    if (held && this.#now() - held.at < this.#maxAgeMs) return Promise.resolve(held.record);
    const pending = this.#inflight.get(hash);
    if (pending) return pending;
    const read = this.#read(hash).finally(() => this.#inflight.delete(hash));
    this.#inflight.set(hash, read);
    return read;
  }

  async #read(hash: string): Promise<ApiKeyRecord | null> {
    const at = this.#now();
    const record = await this.#store.findKeyByHash(hash);
    this.#entries.delete(hash);
    if (record) {
      if (this.#entries.size >= MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
      this.#entries.set(hash, { record, at });
    }
    return record;
  }
}
