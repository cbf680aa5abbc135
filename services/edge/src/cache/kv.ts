/**
 * Cached answers in JetStream KV: bucket `<STORE_NAME>_cache`, key = the cache key (hex), value =
 * `{ storedAt, data }`. The bucket's max_age is CACHE_MAX_AGE_S (entries vanish by themselves), its
 * max_bytes CACHE_MAX_BYTES and its max value size CACHE_MAX_ENTRY_BYTES. KV buckets discard new
 * writes when full, so a full cache stops taking answers until old ones expire; it never fails a
 * request. An existing bucket keeps its configuration (KV does not change it on create).
 */
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { CacheConfig } from './config.ts';
import { parseAnswer, type AnswerStore, type CachedAnswer } from './port.ts';

export class KvAnswerStore implements AnswerStore {
  readonly kind = 'kv' as const;
  readonly #nc: NatsConnection;
  readonly #bucket: string;
  readonly #cfg: CacheConfig;
  #kv!: KV;

  constructor(opts: { nc: NatsConnection; name: string; config: CacheConfig }) {
    this.#nc = opts.nc;
    this.#bucket = `${opts.name}_cache`;
    this.#cfg = opts.config;
  }

  async init(): Promise<void> {
    this.#kv = await new Kvm(this.#nc).create(this.#bucket, {
      history: 1,
      ttl: this.#cfg.maxAgeS * 1000,
      max_bytes: this.#cfg.maxBytes,
      maxValueSize: this.#cfg.maxEntryBytes + 64,
    });
  }

  async get(key: string): Promise<CachedAnswer | null> {
    const e = await this.#kv.get(key);
    if (!e || e.operation !== 'PUT') return null;
    return parseAnswer(e.string());
  }

  async put(key: string, _storedAt: number, json: string): Promise<boolean> {
    if (Buffer.byteLength(json) > this.#cfg.maxEntryBytes + 64) return false;
    try {
      await this.#kv.put(key, json);
      return true;
    } catch (err) {
      // A full bucket refuses new writes (discard-new); old entries make room as they expire.
      if (/maximum bytes exceeded|insufficient (resources|storage)/i.test((err as Error).message)) return false;
      throw err;
    }
  }

  async close(): Promise<void> {
    // The NATS connection belongs to the process.
  }
}
