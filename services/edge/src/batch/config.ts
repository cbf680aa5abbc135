/** The batch API's settings (environment variables, defaults, and the resolved typed form). */
import { z } from 'zod';
import { envBoolean, envInt } from '@enrich/shared/runtime';

export const BatchEnvShape = {
  /** Batch items this edge instance runs at once, all keys together; keep it below the renderers' capacity. */
  BATCH_CONCURRENCY: envInt(1, 1000).default(4),
  /** Batch items this instance starts at most while it serves interactive requests (0: none until they are done). */
  BATCH_YIELD_CONCURRENCY: envInt(0, 1000).default(0),
  /** Batch items one key may have running at once on this instance (fair sharing between keys). */
  BATCH_KEY_CONCURRENCY: envInt(1, 1000).default(2),
  /** How long a batch's status and results are kept after its last change. */
  BATCH_RETENTION_S: envInt(60, 31_536_000).default(604_800),
  /** Deliveries of one item before its last error is final (temporary failures are retried). */
  BATCH_MAX_ATTEMPTS: envInt(1, 20).default(4),
  /** Run the batch worker in this process (an edge that only answers HTTP can set false). */
  BATCH_WORKER: envBoolean.default(true),
  /** Deliveries of a batch's end webhook before it is given up. */
  WEBHOOK_MAX_ATTEMPTS: envInt(1, 30).default(8),
  WEBHOOK_TIMEOUT_MS: envInt(100, 120_000).default(10_000),
  /** First delay of the webhook's retry backoff; it doubles per attempt, capped at 10 minutes. */
  WEBHOOK_BACKOFF_MS: envInt(10, 600_000).default(5_000),
};

export interface BatchConfig {
  concurrency: number;
  keyConcurrency: number;
  yieldConcurrency: number;
  retentionMs: number;
  maxAttempts: number;
  worker: boolean;
  webhookMaxAttempts: number;
  webhookTimeoutMs: number;
  webhookBackoffMs: number;
}

const Env = z.object(BatchEnvShape);

export function resolveBatchConfig(env: z.infer<typeof Env>): BatchConfig {
  return {
    concurrency: env.BATCH_CONCURRENCY,
    keyConcurrency: env.BATCH_KEY_CONCURRENCY,
    yieldConcurrency: env.BATCH_YIELD_CONCURRENCY,
    retentionMs: env.BATCH_RETENTION_S * 1000,
    maxAttempts: env.BATCH_MAX_ATTEMPTS,
    worker: env.BATCH_WORKER,
    webhookMaxAttempts: env.WEBHOOK_MAX_ATTEMPTS,
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS,
    webhookBackoffMs: env.WEBHOOK_BACKOFF_MS,
  };
}

/** The configuration with defaults applied when the edge's config has none (tests). */
export function batchConfigOf(config: { batch?: BatchConfig | undefined }): BatchConfig {
  return config.batch ?? resolveBatchConfig(Env.parse({}));
}
