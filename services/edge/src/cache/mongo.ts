/**
 * Cached answers in MongoDB (`STORE=mongo`): collection `result_cache`, `_id` = the cache key,
 * `storedAt` (a Date, with a TTL index of CACHE_MAX_AGE_S, so entries vanish by themselves), `json`
 * (the answer as sent, so it round-trips exactly) and `bytes`. At most CACHE_MAX_ENTRIES are kept:
 * every 100th write trims the oldest beyond it. Answers above CACHE_MAX_ENTRY_BYTES are not stored.
 */
import { MongoClient, type Collection } from 'mongodb';
import type { CacheConfig } from './config.ts';
import { parseAnswer, type AnswerStore, type CachedAnswer } from './port.ts';

interface CacheDoc {
  _id: string;
  storedAt: Date;
  json: string;
  bytes: number;
}

const TRIM_EVERY = 100;

export class MongoAnswerStore implements AnswerStore {
  readonly kind = 'mongo' as const;
  readonly #client: MongoClient;
  readonly #docs: Collection<CacheDoc>;
  readonly #cfg: CacheConfig;
  #writes = 0;

  constructor(opts: { uri: string; name: string; config: CacheConfig }) {
    this.#client = new MongoClient(opts.uri, { serverSelectionTimeoutMS: 5000, appName: 'enrich-edge-cache' });
    this.#docs = this.#client.db(opts.name).collection<CacheDoc>('result_cache');
    this.#cfg = opts.config;
  }

  async init(): Promise<void> {
    await this.#client.connect();
    await this.#docs.createIndex({ storedAt: 1 }, { expireAfterSeconds: this.#cfg.maxAgeS });
  }

  async get(key: string): Promise<CachedAnswer | null> {
    const doc = await this.#docs.findOne({ _id: key });
    // The TTL monitor runs once a minute: an expired document may still be there.
    if (!doc || Date.now() - doc.storedAt.getTime() > this.#cfg.maxAgeS * 1000) return null;
    return parseAnswer(doc.json);
  }

  async put(key: string, storedAt: number, json: string): Promise<boolean> {
    const bytes = Buffer.byteLength(json);
    if (bytes > this.#cfg.maxEntryBytes + 64) return false;
    await this.#docs.replaceOne({ _id: key }, { storedAt: new Date(storedAt), json, bytes }, { upsert: true });
    if (++this.#writes % TRIM_EVERY === 0) await this.#trim();
    return true;
  }

  async #trim(): Promise<void> {
    const excess = (await this.#docs.estimatedDocumentCount()) - this.#cfg.maxEntries;
    if (excess <= 0) return;
    const oldest = await this.#docs
      .find({}, { projection: { _id: 1 } })
      .sort({ storedAt: 1 })
      .limit(excess)
      .toArray();
    await this.#docs.deleteMany({ _id: { $in: oldest.map((d) => d._id) } });
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
