/**
 * The edge's configuration: read from the environment once (through the runtime's loadConfig) and
 * passed around as a typed object. Nothing else in the edge reads process.env.
 */
import { z } from 'zod';
import { BaseConfigSchema, envBoolean, envInt, loadConfig } from '@enrich/shared/runtime';
import { CacheEnvShape, resolveCacheConfig, type CacheConfig } from './cache/config.ts';

/** Variables of the edge on top of the runtime's BaseConfigSchema (runService merges the two). */
export const EdgeEnvSchema = z.object({
  PORT: envInt(0, 65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** kv (NATS JetStream KV) or mongo; default: mongo when MONGODB_URI is set, else kv. */
  STORE: z.enum(['kv', 'mongo']).optional(),
  MONGODB_URI: z.string().regex(/^mongodb(\+srv)?:\/\//, { message: 'must be a mongodb:// or mongodb+srv:// URI' }).optional(),
  /** Prefix of the KV buckets / name of the MongoDB database. */
  STORE_NAME: z.string().regex(/^[A-Za-z0-9_-]{1,48}$/, { message: 'must be 1-48 letters, digits, _ or -' }).default('enrich'),
  REQUEST_BUDGET_MS: envInt(100, 600_000).default(30_000),
  TRUST_PROXY: envBoolean.default(false),
  RATE_LIMIT_IP_PER_MIN: envInt(1, 1_000_000).default(300),
  DEFAULT_KEY_RATE_LIMIT: envInt(1, 1_000_000).default(60),
  /** Unsettled reservations older than this are refunded by the sweeper; default 2 x REQUEST_BUDGET_MS. */
  RESERVATION_TTL_MS: envInt(100, 86_400_000).optional(),
  /** How often the sweeper looks for expired reservations; default min(RESERVATION_TTL_MS / 2, 60 s). */
  SWEEP_INTERVAL_MS: envInt(50, 3_600_000).optional(),
  SCREENSHOT_DIR: z.string().min(1).default('./.data/screenshots'),
  /** Informational: where the renderer's screenshot URLs point (the edge serves SCREENSHOT_DIR at /assets/). */
  ASSETS_BASE_URL: z.string().optional(),
  ...CacheEnvShape,
});

export const EdgeConfigSchema = BaseConfigSchema.extend(EdgeEnvSchema.shape);
export type EdgeEnv = z.infer<typeof EdgeConfigSchema>;

/** The resolved configuration the edge works with: defaults that depend on other variables applied. */
export interface EdgeConfig {
  port: number;
  host: string;
  natsUrl: string;
  logLevel: EdgeEnv['LOG_LEVEL'];
  store: { kind: 'kv'; name: string } | { kind: 'mongo'; name: string; uri: string };
  requestBudgetMs: number;
  trustProxy: boolean;
  ipRateLimitPerMin: number;
  defaultKeyRateLimit: number;
  reservationTtlMs: number;
  sweepIntervalMs: number;
  screenshotDir: string;
  assetsBaseUrl: string | undefined;
  /** The result cache and single flight (src/cache/). */
  cache: CacheConfig;
}

export function resolveEdgeConfig(env: EdgeEnv): EdgeConfig {
  const kind = env.STORE ?? (env.MONGODB_URI ? 'mongo' : 'kv');
  if (kind === 'mongo' && !env.MONGODB_URI) throw new Error('STORE=mongo needs MONGODB_URI');
  const reservationTtlMs = env.RESERVATION_TTL_MS ?? 2 * env.REQUEST_BUDGET_MS;
  return {
    port: env.PORT,
    host: env.HOST,
    natsUrl: env.NATS_URL,
    logLevel: env.LOG_LEVEL,
    store: kind === 'mongo' ? { kind, name: env.STORE_NAME, uri: env.MONGODB_URI as string } : { kind, name: env.STORE_NAME },
    requestBudgetMs: env.REQUEST_BUDGET_MS,
    trustProxy: env.TRUST_PROXY,
    ipRateLimitPerMin: env.RATE_LIMIT_IP_PER_MIN,
    defaultKeyRateLimit: env.DEFAULT_KEY_RATE_LIMIT,
    reservationTtlMs,
    sweepIntervalMs: env.SWEEP_INTERVAL_MS ?? Math.max(50, Math.min(Math.floor(reservationTtlMs / 2), 60_000)),
    screenshotDir: env.SCREENSHOT_DIR,
    assetsBaseUrl: env.ASSETS_BASE_URL,
    cache: resolveCacheConfig(env),
  };
}

export function loadEdgeConfig(env: Record<string, string | undefined> = process.env): EdgeConfig {
  return resolveEdgeConfig(loadConfig(EdgeConfigSchema, env));
}
