/**
 * What the edge is built from (EdgeDeps) and the per-request state its hooks share, in a module of
 * their own so the routes depend on these types and not on app.ts, which registers the routes.
 */
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { ResultCache } from './cache/cache.ts';
import type { EdgeConfig } from './config.ts';
import type { KeyDirectory } from './auth/key-cache.ts';
import type { WindowCounter } from './rate-limit/local-windows.ts';
import type { Store } from './store/port.ts';
import type { UsageLog } from './usage-log.ts';

export interface EdgeDeps {
  config: EdgeConfig;
  nc: NatsConnection;
  store: Store;
  /** The rate-limit windows: the store's, through this instance's cache (rate-limit/local-windows.ts). */
  windows: WindowCounter;
  /** API key lookups of the hot paths: the store's, through this instance's cache (auth/key-cache.ts). */
  keys: KeyDirectory;
  /** The usage log's batching writer (usage-log.ts). */
  usage: UsageLog;
  log: Logger;
  /** The rate limits' clock (epoch ms); tests inject one to place hits across a window edge. */
  now?: () => number;
  /** The result cache (src/cache/); absent or null: every request does its own work. */
  cache?: ResultCache | null;
}

/** What buildApp is given: the windows, key lookups and usage writer default to ones over the store. */
export type EdgeInput = Omit<EdgeDeps, 'windows' | 'keys' | 'usage'> & { windows?: WindowCounter; keys?: KeyDirectory };

/** Per-request facts the hooks share. */
export interface EdgeRequestState {
  startedAt: number;
  endpoint: string | undefined;
  keyId: string | undefined;
  /** Credits charged (0 unless the request succeeded). */
  credits: number;
  /** Set while this request holds an Idempotency-Key claim (idempotency.ts). */
  idempotency?: { scope: string; key: string } | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    edge: EdgeRequestState;
  }
}
