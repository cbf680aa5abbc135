/** The result cache's variables (merged into the edge's schema) and their resolved form. */
import { envBoolean, envInt } from '@enrich/shared/runtime';

/** The longest `maxAge` a client may give: 30 days. */
export const MAX_AGE_LIMIT_S = 30 * 86_400;

export const CacheEnvShape = {
  /** Cache answers of the five data endpoints and share one render among identical requests in flight. */
  CACHE_ENABLED: envBoolean.default(true),
  /** Entries older than this are gone (KV bucket max_age / MongoDB TTL index), whatever maxAge a client gives. */
  CACHE_MAX_AGE_S: envInt(1, MAX_AGE_LIMIT_S).default(86_400),
  /** KV: the bucket's total size; when it is full, new answers are not cached until old ones expire. */
  CACHE_MAX_BYTES: envInt(1_048_576, 1_099_511_627_776).default(268_435_456),
  /** MongoDB: the most entries kept; the oldest beyond it are deleted. */
  CACHE_MAX_ENTRIES: envInt(1, 100_000_000).default(100_000),
  /** An answer larger than this (JSON bytes) is served but not cached (NATS max_payload is 1 MB by default). */
  CACHE_MAX_ENTRY_BYTES: envInt(1024, 8_388_608).default(524_288),
};

export interface CacheConfig {
  enabled: boolean;
  maxAgeS: number;
  maxBytes: number;
  maxEntries: number;
  maxEntryBytes: number;
}

export function resolveCacheConfig(env: {
  CACHE_ENABLED: boolean;
  CACHE_MAX_AGE_S: number;
  CACHE_MAX_BYTES: number;
  CACHE_MAX_ENTRIES: number;
  CACHE_MAX_ENTRY_BYTES: number;
}): CacheConfig {
  return {
    enabled: env.CACHE_ENABLED,
    maxAgeS: env.CACHE_MAX_AGE_S,
    maxBytes: env.CACHE_MAX_BYTES,
    maxEntries: env.CACHE_MAX_ENTRIES,
    maxEntryBytes: env.CACHE_MAX_ENTRY_BYTES,
  };
}
