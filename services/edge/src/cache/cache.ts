/**
 * The result cache in front of the five data endpoints: a fresh-enough entry answers at once
 * (HIT, with its age); otherwise one request among the identical ones in flight does the work,
 * stores a successful answer, and every other waits for it (MISS, age 0 — they waited for a
 * render). Failures are shared and never stored. A store that fails is logged and bypassed:
 * the cache can make a request faster, never make it fail.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { EdgeConfig } from '../config.ts';
import type { CacheConfig } from './config.ts';
import { SingleFlight, type FlightResult, type Produced } from './flight.ts';
import { cacheKey } from './key.ts';
import { KvAnswerStore } from './kv.ts';
import { answerJson, type AnswerStore, type CachedAnswer } from './port.ts';

export interface CacheRequest<T> {
  endpoint: string;
  /** The normalised target URL. */
  url: string;
  /** The parsed query (defaults applied); `url` and `maxAge` are left out of the key. */
  params: Record<string, unknown>;
  /** Seconds: the oldest answer the client accepts; 0 = produced after this request arrived. */
  maxAgeS: number;
  /** Epoch ms the request arrived / its budget ends. */
  startedAt: number;
  deadline: number;
  /** Validates a stored answer (null: unusable, treated as absent). */
  parse(data: unknown): T | null;
  /** The work; its answer is already validated. */
  produce(): Promise<T>;
}

export interface CacheAnswer<T> {
  data: T;
  status: 'HIT' | 'MISS';
  /** Whole seconds since the answer was produced (the `Age` header). */
  ageS: number;
}

export class ResultCache {
  readonly #store: AnswerStore;
  readonly #flight: SingleFlight;
  readonly #log: Pick<Logger, 'warn'>;

  constructor(store: AnswerStore, flight: SingleFlight, log: Pick<Logger, 'warn'>) {
    this.#store = store;
    this.#flight = flight;
    this.#log = log;
  }

  async init(): Promise<void> {
    await Promise.all([this.#store.init(), this.#flight.init()]);
  }

  async close(): Promise<void> {
    await this.#store.close();
  }

  /** The entry for a request as it would be keyed (tests and tools: is there one?). */
  async peek(endpoint: string, url: string, params: Record<string, unknown>): Promise<CachedAnswer | null> {
    return this.#store.get(cacheKey(endpoint, url, params));
  }

  async through<T>(r: CacheRequest<T>): Promise<CacheAnswer<T>> {
    const key = cacheKey(r.endpoint, r.url, r.params);
    const hit = await this.#fresh(key, r);
    if (hit) return { data: hit.data, status: 'HIT', ageS: ageOf(hit.storedAt) };
    const result: FlightResult = await this.#flight.run({
      key,
      deadline: r.deadline,
      lookup: () => this.#fresh(key, r),
      produce: () => this.#produce(key, r),
    });
    // The flight carries data this process validated (leader) or another edge did (follower): check it here too.
    const data = result.shared ? r.parse(result.data) : (result.data as T);
    if (data === null) throw new Error('an identical request answered with data that does not match the contract');
    return { data, status: 'MISS', ageS: ageOf(result.storedAt) };
  }

  /** A stored answer the request accepts: young enough for maxAge, or produced after the request arrived. */
  async #fresh<T>(key: string, r: CacheRequest<T>): Promise<{ storedAt: number; data: T } | null> {
    let entry: CachedAnswer | null;
    try {
      entry = await this.#store.get(key);
    } catch (err) {
      this.#log.warn({ err }, 'result cache read failed; answering without it');
      return null;
    }
    if (!entry) return null;
    if (Date.now() - entry.storedAt > r.maxAgeS * 1000 && entry.storedAt < r.startedAt) return null;
    const data = r.parse(entry.data);
    return data === null ? null : { storedAt: entry.storedAt, data };
  }

  async #produce<T>(key: string, r: CacheRequest<T>): Promise<Produced> {
    const data = await r.produce();
    const storedAt = Date.now();
    const json = JSON.stringify(data);
    try {
      const kept = await this.#store.put(key, storedAt, answerJson(storedAt, json));
      if (!kept)
        this.#log.warn(
          { endpoint: r.endpoint, bytes: Buffer.byteLength(json) },
          'answer not cached: larger than CACHE_MAX_ENTRY_BYTES, or the cache is full (CACHE_MAX_BYTES)',
        );
    } catch (err) {
      this.#log.warn({ err }, 'result cache write failed; the answer is served uncached');
    }
    return { storedAt, data, json };
  }
}

function ageOf(storedAt: number): number {
  return Math.max(0, Math.floor((Date.now() - storedAt) / 1000));
}

/** The cache the configuration asks for (KV, or MongoDB with STORE=mongo: driver loaded then only); null when disabled. */
export async function openResultCache(
  config: Pick<EdgeConfig, 'store'> & { cache: CacheConfig },
  nc: NatsConnection,
  log: Pick<Logger, 'warn'>,
): Promise<ResultCache | null> {
  if (!config.cache.enabled) return null;
  const s = config.store;
  const store =
    s.kind === 'mongo'
      ? new (await import('./mongo.ts')).MongoAnswerStore({ uri: s.uri, name: s.name, config: config.cache })
      : new KvAnswerStore({ nc, name: s.name, config: config.cache });
  return new ResultCache(store, new SingleFlight({ nc, name: s.name }), log);
}
