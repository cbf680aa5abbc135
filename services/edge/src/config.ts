/**
 * The edge's configuration: read from the environment once (through the runtime's loadConfig) and
 * passed around as a typed object. Nothing else in the edge reads process.env.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { BaseConfigSchema, ConfigError, envInt, loadConfig } from '@enrich/shared/runtime';
import { BatchEnvShape, resolveBatchConfig, type BatchConfig } from './batch/config.ts';
import { CacheEnvShape, resolveCacheConfig, type CacheConfig } from './cache/config.ts';

/**
 * TRUST_PROXY: how many proxies in front of the edge append to X-Forwarded-For (a hop count), or the
 * proxies' own addresses / CIDRs (comma-separated). `false` (or 0) trusts no proxy. Trusting every
 * hop (`true`, `yes`, `*`, `all`) is refused: it lets any client choose its own IP.
 */
export type TrustProxy = number | string[];

const EVERY_HOP = /^(true|yes|on|all|\*|everything)$/i;

export function parseTrustProxy(raw: string): TrustProxy | string {
  const v = raw.trim();
  if (EVERY_HOP.test(v)) {
    return 'trusting every hop lets a client choose its own IP with X-Forwarded-For; give the number of proxies in front of the edge (e.g. 1) or their addresses/CIDRs';
  }
  if (/^(false|no|off)$/i.test(v)) return 0;
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    return n <= 16 ? n : 'a hop count must be from 0 to 16';
  }
  const items = v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = items.filter((item) => !isAddressOrCidr(item));
  if (items.length === 0 || bad.length > 0)
    return `must be a hop count (0-16) or comma-separated proxy addresses/CIDRs; not an address or CIDR: ${bad.map((b) => JSON.stringify(b)).join(', ') || '(empty)'}`;
  return items;
}

function isAddressOrCidr(item: string): boolean {
  const [addr, bits, ...rest] = item.split('/');
  if (rest.length > 0 || !addr) return false;
  const family = isIP(addr);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

const envTrustProxy = z.string().transform((raw, ctx) => {
  const parsed = parseTrustProxy(raw);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

const DAY_MS = 86_400_000;

export const DEFAULT_KEY_CACHE_MS = 5_000;
export const DEFAULT_USAGE_FLUSH_MS = 250;

/** Variables of the edge on top of the runtime's BaseConfigSchema (runService merges the two). */
export const EdgeEnvSchema = z.object({
  PORT: envInt(0, 65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** kv (NATS JetStream KV) or mongo; default: mongo when MONGODB_URI is set, else kv. */
  STORE: z.enum(['kv', 'mongo']).optional(),
  MONGODB_URI: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, { message: 'must be a mongodb:// or mongodb+srv:// URI' })
    .optional(),
  /** Prefix of the KV buckets / name of the MongoDB database. */
  STORE_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,48}$/, { message: 'must be 1-48 letters, digits, _ or -' })
    .default('enrich'),
  REQUEST_BUDGET_MS: envInt(100, 600_000).default(30_000),
  TRUST_PROXY: envTrustProxy.default(0),
  /** IPv6 clients share one per-IP window per prefix of this length (a host usually has a whole /64). */
  RATE_LIMIT_IPV6_PREFIX: envInt(1, 128).default(64),
  /** Usage log entries are deleted this many days after they were written. */
  USAGE_RETENTION_DAYS: envInt(1, 3650).default(90),
  /** Ledger entries (how each reservation closed) are deleted this many days after the settle. */
  LEDGER_RETENTION_DAYS: envInt(1, 3650).default(7),
  RATE_LIMIT_IP_PER_MIN: envInt(1, 1_000_000).default(300),
  /**
   * How long this instance reuses an API key's record (auth/key-cache.ts); 0 reads the store on every
   * request. Credits and revocation stay exact: every reservation reads the store.
   */
  KEY_CACHE_MS: envInt(0, 60_000).default(DEFAULT_KEY_CACHE_MS),
  /** Usage-log entries are gathered this long and written as one batch per key (usage-log.ts); 0: as they come. */
  USAGE_FLUSH_MS: envInt(0, 10_000).default(DEFAULT_USAGE_FLUSH_MS),
  DEFAULT_KEY_RATE_LIMIT: envInt(1, 1_000_000).default(60),
  /** Unsettled reservations older than this are refunded by the sweeper; default 2 x REQUEST_BUDGET_MS, never below it. */
  RESERVATION_TTL_MS: envInt(100, 86_400_000).optional(),
  /** How often the sweeper looks for expired reservations; default min(RESERVATION_TTL_MS / 2, 60 s). */
  SWEEP_INTERVAL_MS: envInt(50, 3_600_000).optional(),
  /** CIDRs exempt from the edge's early private-target refusal (tests, local demo); refused in production. */
  ALLOW_PRIVATE_TARGETS: z
    .string()
    .refine(
      (v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
          .every(isAddressOrCidr),
      { message: 'must be comma-separated IP addresses or CIDRs' },
    )
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .default([]),
  /** The images set `production`: test switches are refused then. */
  NODE_ENV: z.string().optional(),
  SCREENSHOT_DIR: z.string().min(1).default('./.data/screenshots'),
  /** Informational: where the renderer's screenshot URLs point (the edge serves SCREENSHOT_DIR at /assets/). */
  ASSETS_BASE_URL: z.string().optional(),
  /** The API's public base URL, for `servers` in /openapi.json; default: the origin each request reached. */
  PUBLIC_URL: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }).optional(),
  ...CacheEnvShape,
  ...BatchEnvShape,
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
  /** Hops (0 = none) or proxy addresses/CIDRs; never "every hop". */
  trustProxy: TrustProxy;
  ipRateLimitPerMin: number;
  ipv6Prefix: number;
  usageRetentionMs: number;
  ledgerRetentionMs: number;
  defaultKeyRateLimit: number;
  /** KEY_CACHE_MS (optional so test configs may omit it: the default applies). */
  keyCacheMs?: number;
  /** USAGE_FLUSH_MS (optional so test configs may omit it: the default applies). */
  usageFlushMs?: number;
  reservationTtlMs: number;
  sweepIntervalMs: number;
  /** CIDRs the edge's private-target refusal lets through (target-guard.ts). */
  allowPrivateTargets: string[];
  screenshotDir: string;
  assetsBaseUrl: string | undefined;
  /** PUBLIC_URL: the base URL /openapi.json names in `servers` (optional here so test configs may omit it). */
  publicUrl?: string | undefined;
  /** The result cache and single flight (src/cache/). */
  cache: CacheConfig;
  /** POST /batch and its worker (optional so test configs may omit it: defaults apply). */
  batch?: BatchConfig;
}

export function resolveEdgeConfig(env: EdgeEnv): EdgeConfig {
  const kind = env.STORE ?? (env.MONGODB_URI ? 'mongo' : 'kv');
  if (kind === 'mongo' && !env.MONGODB_URI) throw new ConfigError('Invalid configuration:\n  STORE="mongo": needs MONGODB_URI');
  const reservationTtlMs = env.RESERVATION_TTL_MS ?? 2 * env.REQUEST_BUDGET_MS;
  if (reservationTtlMs < env.REQUEST_BUDGET_MS) {
    // The sweeper would refund requests still running (and later charged), so the ledger would lie.
    throw new ConfigError(
      `Invalid configuration:\n  RESERVATION_TTL_MS=${JSON.stringify(String(reservationTtlMs))}: must be at least REQUEST_BUDGET_MS (${env.REQUEST_BUDGET_MS}); a reservation must outlive the request that holds it`,
    );
  }
  if (env.NODE_ENV === 'production' && env.ALLOW_PRIVATE_TARGETS.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  ALLOW_PRIVATE_TARGETS=${JSON.stringify(env.ALLOW_PRIVATE_TARGETS.join(','))}: a test switch, refused when NODE_ENV=production`,
    );
  }
  return {
    port: env.PORT,
    host: env.HOST,
    natsUrl: env.NATS_URL,
    logLevel: env.LOG_LEVEL,
    store: kind === 'mongo' ? { kind, name: env.STORE_NAME, uri: env.MONGODB_URI as string } : { kind, name: env.STORE_NAME },
    requestBudgetMs: env.REQUEST_BUDGET_MS,
    trustProxy: env.TRUST_PROXY,
    ipRateLimitPerMin: env.RATE_LIMIT_IP_PER_MIN,
    ipv6Prefix: env.RATE_LIMIT_IPV6_PREFIX,
    usageRetentionMs: env.USAGE_RETENTION_DAYS * DAY_MS,
    ledgerRetentionMs: env.LEDGER_RETENTION_DAYS * DAY_MS,
    defaultKeyRateLimit: env.DEFAULT_KEY_RATE_LIMIT,
    keyCacheMs: env.KEY_CACHE_MS,
    usageFlushMs: env.USAGE_FLUSH_MS,
    reservationTtlMs,
    allowPrivateTargets: env.ALLOW_PRIVATE_TARGETS,
    sweepIntervalMs: env.SWEEP_INTERVAL_MS ?? Math.max(50, Math.min(Math.floor(reservationTtlMs / 2), 60_000)),
    screenshotDir: env.SCREENSHOT_DIR,
    assetsBaseUrl: env.ASSETS_BASE_URL,
    publicUrl: env.PUBLIC_URL,
    cache: resolveCacheConfig(env),
    batch: resolveBatchConfig(env),
  };
}

export function loadEdgeConfig(env: Record<string, string | undefined> = process.env): EdgeConfig {
  return resolveEdgeConfig(loadConfig(EdgeConfigSchema, env));
}
